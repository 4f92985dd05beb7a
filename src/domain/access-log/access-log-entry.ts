import { Type, type Static } from 'typebox';
import { BASES, BASIS_NAMES, LOG_OUTCOMES, NO_APP_NAMES, OUTCOME_NAMES, operationDisplayName, writeResultDisplayName, type LogBasis } from './display-names.js';
import type { DisplayName } from '../operations/operation.js';
import type { GrantParties, LoggedAccess } from '../../ports/access-log.port.js';
import { ALSO_READ_MAX } from './also-read.js';
import { offsetAt } from '../time/local-time.js';

const DisplayNameSchema = Type.Object({
  sv: Type.String({ description: 'In Swedish.' }),
  en: Type.String({ description: 'In English.' }),
}, { description: 'The same thing in words a patient understands, in Swedish and English.' });

const enumOf = <T extends readonly string[]>(values: T, description: string) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

/** `code` (Swedish / English), … : what an app shows for each code. The names are not repeated in every entry (a page is 45 % smaller). */
const named = (names: Readonly<Record<string, DisplayName>>): string => Object.entries(names).map(([code, n]) => `\`${code}\` (${n.sv} / ${n.en})`).join(', ');

/**
 * One line of a patient's access log (docs/contract.md#the-patients-access-log): who acted, on what basis, through which
 * application, what they did and what came of it, and when. Never a token, key or source address:
 * the schema lists every property, so nothing else can be serialised.
 */
export const AccessLogEntrySchema = Type.Object({
  time: Type.String({ pattern: '^[0-9]{14}$', description: "When, local time in the EHR's time zone (YYYYMMDDhhmmss)." }),
  timeInUnix: Type.Integer({ description: 'The same instant in epoch milliseconds.' }),
  operation: Type.String({ maxLength: 64, description: 'Which operation, by its operationId in this document (getJournalNotes, registerPayment, ...).' }),
  operationDisplayName: DisplayNameSchema,
  alsoRead: Type.Optional(Type.Array(Type.Object({
    operation: Type.String({ maxLength: 64, description: 'The read, by its operationId in this document (getJournalNotes, ...).' }),
    operationDisplayName: DisplayNameSchema,
  }), {
    maxItems: ALSO_READ_MAX,
    description: 'The other kinds of the patient\'s data the same request answered, besides `operation`\'s, in the order read: '
      + 'the journal notes a FHIR search of care contacts included, each section of a FHIR `$summary`. Absent when it read one kind.',
  })),
  outcome: enumOf(LOG_OUTCOMES, `What came of it: ${named(OUTCOME_NAMES)}. Refused: no right of access, or a bad request; failed: nothing was shown.`),
  result: Type.Optional(Type.Object({
    code: Type.String({
      maxLength: 70, pattern: '^((OK|INFO|ERROR)( [A-Z][A-Z_]{0,63})?|UNKNOWN)$',
      description: 'The ResultCode and ReasonCode, e.g. ERROR OUTSIDE_ARRIVAL_WINDOW; UNKNOWN where the EHR was sent the write and did not confirm it.',
    }),
    displayName: DisplayNameSchema,
  }, {
    description: 'On an arrival or a payment the EHR answered: what came of it (an outcome `allowed` says only that the caller was let ask); '
      + 'on one it was sent and did not confirm (outcome `failed`), that it is not known whether it was made. Absent on every other entry.',
  })),
  basis: enumOf(BASES, `On what basis: ${named(BASIS_NAMES)}. The last two are a person whose right to act for the patient was not established.`),
  actorPersonId: Type.Optional(Type.String({
    pattern: '^[0-9]{12}$',
    description: 'The identity number of the guardian, representative, partner or proxy (someone the patient shared their record with) who acted; '
      + 'shown only to that person and to the patient.',
  })),
  grantee: Type.Optional(Type.Object({
    identityNumber: Type.String({ pattern: '^[0-9]{12}$', description: 'Their identity or coordination number, as the patient gave it when sharing.' }),
    name: Type.Optional(Type.String({ maxLength: 200, description: 'Their name, once they accepted (never for a number only typed).' })),
  }, {
    description: 'On an entry of sharing (grantProxy, acceptProxy, declineProxy, revokeProxy, expireProxy, lapseProxy): the person the patient '
      + 'shared their record with, or invited to it, named by number until they accept. Shown only to the patient.',
  })),
  reason: Type.Optional(Type.String({
    maxLength: 1000,
    description: 'On a revokeProxy of basis support: why the support staff ended the sharing, in their words. Shown only to the patient.',
  })),
  clientApplication: Type.Object({
    displayName: Type.String({
      maxLength: 128,
      description: 'The application, by the name its operator gave it; through no app, "Tjänstens eget verktyg" (support\'s tool, the service itself) or "Okänd app".',
    }),
    clientId: Type.Optional(Type.String({ maxLength: 256, description: 'The OAuth client id of the application, when the token named one.' })),
  }, { description: 'The application the request came through.' }),
  requestId: Type.String({
    maxLength: 128,
    description: 'The service\'s own id of the request (a UUID, its X-Request-Id answer header); quote it when asking about an entry. '
      + 'Empty for an entry recorded before the service kept an id of its own, when the id was the caller\'s.',
  }),
}, {
  description: 'One access to the patient\'s data, refused and failed ones included.',
  // What the patient reads about their guardian's read of their journal (synthetic identity numbers).
  example: {
    time: '20261121100512', timeInUnix: 1_795_251_912_345, operation: 'getJournalNotes',
    operationDisplayName: { sv: 'Journalanteckningar', en: 'Journal notes' },
    outcome: 'allowed', basis: 'guardian', actorPersonId: '198112189876',
    clientApplication: { displayName: 'Vårdappen', clientId: 'patient-app' }, requestId: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42',
  },
});

export type AccessLogEntry = Static<typeof AccessLogEntrySchema>;

const QUARTER_MS = 900_000;
// Zone offsets by quarter hour (zones change them on quarter hours only), numerically keyed: entries
// of a page are often hours apart, and offsetAt's own cache builds a string key for every lookup.
const offsets = new Map<string, Map<number, number>>();

/** 14-digit local time by the zone's offset at that instant: no Intl call per entry. */
function localCompact(ms: number, zone: string): string {
  const quarter = Math.floor(ms / QUARTER_MS);
  let byQuarter = offsets.get(zone);
  if (byQuarter === undefined || byQuarter.size > 100_000) offsets.set(zone, byQuarter = new Map());
  let offset = byQuarter.get(quarter);
  if (offset === undefined) byQuarter.set(quarter, offset = offsetAt(ms, zone));
  return compactOfWallClock(ms + offset);
}

const DAY_MS = 86_400_000;
const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);

/**
 * `YYYYMMDDhhmmss` of a wall-clock instant by arithmetic (H. Hinnant's days-to-civil algorithm), not
 * through `toISOString` and six slices: a page formats 100 of these, and that was ~6 % of its CPU.
 * Years 1000–9999, which is every year an audit record can carry.
 */
function compactOfWallClock(wallMs: number): string {
  const days = Math.floor(wallMs / DAY_MS);
  const secondOfDay = Math.floor((wallMs - days * DAY_MS) / 1000);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}${two(month)}${two(day)}${two(Math.floor(secondOfDay / 3600))}${two(Math.floor(secondOfDay / 60) % 60)}${two(secondOfDay % 60)}`;
}

/** Who reads the log: the patient, a delegate, or a client token (no person). */
export interface LogViewer {
  personId?: string;
}

/** The relationships whose acting person the log names by number (to that person and the patient). */
const RELATIONSHIPS = new Set<string>(['guardian', 'power-of-attorney', 'partner', 'proxy']);
/** Who acts without a person's token, as the service records them (src/start/proxy-grants.ts, `npm run proxies -- revoke`). */
const NO_PERSON = new Set<string>(['support', 'service']);

function basisOf(a: LoggedAccess, patientId: string, grant: GrantParties | undefined): LogBasis {
  if (a.actorPersonId === undefined) return a.delegation !== undefined && NO_PERSON.has(a.delegation) ? a.delegation as LogBasis : 'client';
  if (a.actorPersonId === patientId) return 'self';
  if (a.delegation !== undefined && RELATIONSHIPS.has(a.delegation)) return a.delegation as LogBasis;
  // The grantee accepting, declining or revoking the patient's grant acts for themself, on the patient's grant.
  if (grant !== undefined && grant.grantee === a.actorPersonId) return 'proxy';
  // A person acting for someone else without an established relationship: refused, or stopped by a fault first.
  return a.outcome === 'failed' ? 'unverified' : 'refused';
}

/**
 * The only form of the service's own request id (a UUID). A store gives the service's id where the
 * record has one; a record older than that may hold the caller's X-Request-Id instead, which is text a
 * stranger chose and is never shown to the patient (docs/contract.md#the-patients-access-log).
 */
const SERVICE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Configured display names of applications, by client id or subscription name (CLIENT_NAMES). */
export type ClientNames = ReadonlyMap<string, string>;

/**
 * The application by its configured name, else by its OAuth client id, and by its subscription only
 * when it has no client id; with neither, by NO_APP_NAMES. A subscription key names an API-management subscription, not an app: one
 * key may serve several apps (the demo's does), and on the FHIR API an app sends none, so one app
 * named by its key in one entry and by its client id in the next showed under two names.
 */
function clientOf(a: LoggedAccess, basis: LogBasis, names: ClientNames): AccessLogEntry['clientApplication'] {
  const displayName = (a.clientId !== undefined ? names.get(a.clientId) : undefined)
    ?? (a.subscription !== undefined ? names.get(a.subscription) : undefined)
    ?? a.clientId ?? a.subscription ?? (NO_PERSON.has(basis) ? NO_APP_NAMES.own : NO_APP_NAMES.unknown).sv;
  return a.clientId === undefined ? { displayName } : { displayName, clientId: a.clientId };
}

/**
 * The log entry of one access as `viewer` may see it. `grant` is the grant the access names
 * (`proxyGrantId`), taken only when it is this patient's: its grantee, and support's reason, are
 * shown to the patient alone.
 */
export function entryOf(a: LoggedAccess, patientId: string, viewer: LogViewer, zone: string, names: ClientNames, grant?: GrantParties): AccessLogEntry {
  const ms = a.timeMs;
  const ofPatient = grant !== undefined && grant.grantor === patientId ? grant : undefined;
  const basis = basisOf(a, patientId, ofPatient);
  const outcome = LOG_OUTCOMES.includes(a.outcome) ? a.outcome : 'failed';
  const entry: AccessLogEntry = {
    time: localCompact(ms, zone),
    timeInUnix: ms,
    operation: a.operation,
    operationDisplayName: operationDisplayName(a.operation),
    ...(a.alsoRead === undefined ? {} : { alsoRead: a.alsoRead.map((operation) => ({ operation, operationDisplayName: operationDisplayName(operation) })) }),
    outcome,
    ...(a.writeResult === undefined ? {} : { result: { code: a.writeResult, displayName: writeResultDisplayName(a.writeResult) } }),
    basis,
    clientApplication: clientOf(a, basis, names),
    requestId: SERVICE_ID.test(a.requestId) ? a.requestId : '',
  };
  // A delegate's number: only to that delegate and to the patient; never that of a refused stranger.
  const seesNumber = viewer.personId !== undefined && (viewer.personId === patientId || viewer.personId === a.actorPersonId);
  if (RELATIONSHIPS.has(basis) && seesNumber && a.actorPersonId !== undefined) entry.actorPersonId = a.actorPersonId;
  // Whom the patient shared with, and why support ended it: the patient's own business, never a delegate's.
  if (viewer.personId !== undefined && viewer.personId === patientId) {
    if (ofPatient !== undefined) {
      entry.grantee = { identityNumber: ofPatient.grantee, ...(ofPatient.granteeName === undefined ? {} : { name: ofPatient.granteeName }) };
    }
    if (a.reason !== undefined && basis === 'support') entry.reason = a.reason;
  }
  return entry;
}
