/**
 * The soak's request mix: every request is planned with the status it must get, whether it must
 * leave an audit record, and (for 2xx) what its body must show. Refusals are provoked on purpose
 * (401, 403, 400, 415, 404), so any other non-2xx answer is a finding. Synthetic people only: the
 * demo data set's Swedish test identity numbers.
 */

import { apiScopes } from '../../src/domain/access/scopes.js';

export const PEOPLE = {
  adult: '191212121212',
  actor: '198112189876',
  minor: '201701012393',
  expiredWard: '200404122384',
  partner: '194608632396',
  protectedPerson: '197305242385',
  unknown: '195507142478',
} as const;

/** Every scope of the operation table. */
export const ALL_SCOPES = [...apiScopes().keys()].join(' ');

export type RequestClass = 'read' | 'write' | 'refused';

export interface PlannedRequest {
  label: string;
  kind: RequestClass;
  method: 'GET' | 'PUT' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number;
  /** A request to a patient-data route: exactly one audit record. */
  audited: boolean;
  /** For a 2xx answer: a problem with its JSON body, or undefined. */
  check?: (body: unknown) => string | undefined;
}

export interface PlanFixtures {
  /** Subscription keys of the service; each request picks one. */
  keys: readonly string[];
  tokens: {
    /** A person token of `adult`; replaced every second by a newly minted one (`freshAdult`). */
    adult: string;
    freshAdult: () => string;
    actor: string;
    kiosk: string;
    /** Only user/JournalNote-read. */
    narrow: string;
    expired: string;
    foreign: string;
  };
  /** Today's bookings whose arrival window is open (adult's own, and the minor's). */
  bookings: { adult: string; minor: string };
  /** Today in the service's zone, YYYY-MM-DD. */
  today: string;
}

/** mulberry32: a small seeded generator, so a run's mix can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const isArray = (body: unknown): string | undefined => (Array.isArray(body) ? undefined : 'not a JSON array');

/** The answer names this patient and no other identity number of the data set's people. */
const aboutOnly = (patient: string) => (body: unknown): string | undefined => {
  const text = JSON.stringify(body);
  if (!text.includes(patient)) return `does not name the requested patient`;
  const others = Object.values(PEOPLE).filter((p) => p !== patient && p !== PEOPLE.unknown && text.includes(p));
  return others.length === 0 ? undefined : 'names another patient';
};

interface PatientV2Body {
  patientID?: { extension?: unknown };
  patientAddresses?: unknown[];
  phoneNumbers?: { phone?: unknown[] };
  emailAddresses?: { Email?: unknown[] };
}

/** The vendor's patient v2 layout (docs/contract.md#reads): `[{patientEHRExtract: [{patient}]}]`. */
const patientV2Of = (patient: string, masked = false) => (body: unknown): string | undefined => {
  const extracts = Array.isArray(body) ? (body as { patientEHRExtract?: { patient?: PatientV2Body }[] }[]).flatMap((i) => i.patientEHRExtract ?? []) : [];
  const records = extracts.map((e) => e.patient);
  if (records.length === 0 || records.some((r) => r?.patientID?.extension !== patient)) return 'v2 record of another patient';
  const shown = (list: unknown[] | undefined): boolean => Array.isArray(list) && list.length > 0;
  if (masked && records.some((r) => shown(r?.patientAddresses) || shown(r?.phoneNumbers?.phone) || shown(r?.emailAddresses?.Email))) {
    return 'contact details of a protected identity shown to a client token';
  }
  return undefined;
};

const resultCode = (allowed: readonly string[], wrapped: boolean) => (body: unknown): string | undefined => {
  const record = (wrapped ? (Array.isArray(body) ? body[0] : undefined) : body) as { ResultCode?: unknown } | undefined;
  const code = record?.ResultCode;
  return typeof code === 'string' && allowed.includes(code) ? undefined : `ResultCode ${String(code)} not in ${allowed.join('/')}`;
};

interface Entry {
  weight: number;
  make: () => PlannedRequest;
}

/** The weighted mix; `next()` plans one request. */
export class LoadPlan {
  private readonly entries: Entry[];
  private readonly total: number;

  constructor(private readonly f: PlanFixtures, private readonly random: () => number) {
    this.entries = this.build();
    this.total = this.entries.reduce((sum, e) => sum + e.weight, 0);
  }

  next(): PlannedRequest {
    let pick = this.random() * this.total;
    for (const entry of this.entries) {
      pick -= entry.weight;
      if (pick < 0) return entry.make();
    }
    return (this.entries[this.entries.length - 1] as Entry).make();
  }

  /** Every kind of request once, for a check that the mix itself is sound. */
  all(): PlannedRequest[] {
    return this.entries.map((e) => e.make());
  }

  private key(): string {
    return this.f.keys[Math.floor(this.random() * this.f.keys.length)] as string;
  }

  private headers(token: string | undefined, patient?: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      'ocp-apim-subscription-key': this.key(),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(patient === undefined ? {} : { patient }),
      ...extra,
    };
  }

  private build(): Entry[] {
    const { tokens, bookings, today } = this.f;
    const P = PEOPLE;
    const day = `fromDateTime=${today}T00:00:00&toDateTime=${today}T23:59:59`;
    const json = { 'content-type': 'application/json' };
    const read = (weight: number, label: string, path: string, token: () => string, patient?: string, check: PlannedRequest['check'] = isArray): Entry => ({
      weight, make: () => ({ label, kind: 'read', method: 'GET', path, headers: this.headers(token(), patient), expect: 200, audited: true, check }),
    });
    const refused = (weight: number, label: string, status: number, make: () => Omit<PlannedRequest, 'label' | 'kind' | 'expect' | 'audited'>, audited = true): Entry => ({
      weight, make: () => ({ label, kind: 'refused', expect: status, audited, ...make() }),
    });
    const write = (weight: number, label: string, method: 'PUT' | 'POST', path: string, body: object, token: () => string, patient: string | undefined, check: PlannedRequest['check']): Entry => ({
      weight,
      make: () => ({ label, kind: 'write', method, path, headers: this.headers(token(), patient, json), body: JSON.stringify(body), expect: 200, audited: true, check }),
    });
    const adult = (): string => tokens.adult;
    const actor = (): string => tokens.actor;
    const kiosk = (): string => tokens.kiosk;

    return [
      // The seven reads (eight with the v2 patient layout), a person reading their own data.
      read(6, 'self appointments', '/patients/appointments/', adult),
      read(4, 'self appointments today', `/patients/appointments/?${day}`, adult),
      read(5, 'self patient', '/patients/patient/', adult, undefined, aboutOnly(P.adult)),
      read(5, 'self patient v2', '/patients/patient/?api-version=v2', adult, undefined, patientV2Of(P.adult)),
      read(5, 'self contacts', '/patients/contacts/?api-version=v2', adult),
      read(2, 'self contacts (no slash)', '/patients/contacts', adult),
      read(5, 'self attention signals', '/patients/attentionsignals/', adult),
      read(5, 'self video meetings', '/patients/videomeetings/', adult),
      read(5, 'self medications since 2025', '/patients/medications/?fromDateTime=2025-01-01T00:00:00', adult),
      read(5, 'self journal notes', '/patients/journalnotes/', adult),
      read(2, 'self journal notes today', `/patients/journalnotes/?${day}`, adult),
      read(4, 'self journal notes, fresh token', '/patients/journalnotes/', tokens.freshAdult),
      // Delegated: a guardian, a power of attorney, a partner.
      read(2, 'guardian: minor journal notes', '/patients/journalnotes/', actor, P.minor),
      read(2, 'guardian: minor appointments', '/patients/appointments/', actor, P.minor),
      read(2, 'guardian: minor patient v2', '/patients/patient/?api-version=v2', actor, P.minor, patientV2Of(P.minor)),
      read(2, 'power of attorney: medications', '/patients/medications/', actor, P.adult),
      read(1, 'power of attorney: patient', '/patients/patient/', actor, P.adult, aboutOnly(P.adult)),
      read(2, 'partner: contacts', '/patients/contacts/', actor, P.partner),
      read(1, 'partner: patient v2', '/patients/patient/?api-version=v2', actor, P.partner, patientV2Of(P.partner)),
      // A client token (kiosk) naming the patient; a protected identity is masked.
      read(3, 'kiosk: appointments', `/patients/appointments/?${day}`, kiosk, P.adult),
      read(2, 'kiosk: patient v2', '/patients/patient/?api-version=v2', kiosk, P.adult, patientV2Of(P.adult)),
      read(2, 'kiosk: protected patient v2 (masked)', '/patients/patient/?api-version=v2', kiosk, P.protectedPerson, patientV2Of(P.protectedPerson, true)),
      read(1, 'kiosk: minor video meetings', '/patients/videomeetings/', kiosk, P.minor),

      // Refused on purpose.
      // Before authentication (no valid key, or a valid key without a valid token) only the first per address, key,
      // operation and status in a minute is audited, the rest counted (issue 12 item 4, issue 20 item 4).
      refused(1, 'no subscription key', 401, () => ({ method: 'GET', path: '/patients/journalnotes/', headers: { authorization: `Bearer ${tokens.adult}` } }), false),
      refused(1, 'unknown subscription key', 401, () => ({ method: 'GET', path: '/patients/appointments/', headers: { 'ocp-apim-subscription-key': 'soak-not-a-key-0000000000', authorization: `Bearer ${tokens.adult}` } }), false),
      refused(1, 'malformed token', 401, () => ({ method: 'GET', path: '/patients/patient/', headers: this.headers('not.a-jwt.at-all') }), false),
      refused(1, 'no token', 401, () => ({ method: 'GET', path: '/patients/contacts/', headers: this.headers(undefined) }), false),
      refused(1, 'expired token', 401, () => ({ method: 'GET', path: '/patients/medications/', headers: this.headers(tokens.expired) }), false),
      refused(1, 'token signed by a foreign key', 401, () => ({ method: 'GET', path: '/patients/journalnotes/', headers: this.headers(tokens.foreign) }), false),
      refused(1, 'insufficient scope', 403, () => ({ method: 'GET', path: '/patients/videomeetings/', headers: this.headers(tokens.narrow) })),
      refused(1, 'write with a read scope', 403, () => ({ method: 'PUT', path: `/patients/appointments/?id=${bookings.adult}`, headers: this.headers(tokens.narrow, undefined, json), body: '{"status":"arrived"}' })),
      refused(1, 'ended guardianship', 403, () => ({ method: 'GET', path: '/patients/journalnotes/', headers: this.headers(tokens.actor, P.expiredWard) })),
      refused(1, 'delegation to a protected identity', 403, () => ({ method: 'GET', path: '/patients/patient/', headers: this.headers(tokens.actor, P.protectedPerson) })),
      refused(1, 'unknown patient', 403, () => ({ method: 'GET', path: '/patients/appointments/', headers: this.headers(tokens.kiosk, P.unknown) })),
      refused(1, 'unrelated patient', 403, () => ({ method: 'GET', path: '/patients/attentionsignals/', headers: this.headers(tokens.adult, P.minor) })),
      refused(1, 'bad check digit', 400, () => ({ method: 'GET', path: '/patients/journalnotes/', headers: this.headers(tokens.kiosk, '191212121213') })),
      refused(1, 'client token without patient', 400, () => ({ method: 'GET', path: '/patients/medications/', headers: this.headers(tokens.kiosk) })),
      refused(1, 'impossible date', 400, () => ({ method: 'GET', path: '/patients/journalnotes/?fromDateTime=2025-13-01T00:00:00', headers: this.headers(tokens.adult) })),
      refused(1, 'from after to', 400, () => ({ method: 'GET', path: '/patients/appointments/?fromDateTime=2026-02-01T00:00:00&toDateTime=2026-01-01T00:00:00', headers: this.headers(tokens.adult) })),
      refused(1, 'unsupported api-version', 400, () => ({ method: 'GET', path: '/patients/patient/?api-version=v3', headers: this.headers(tokens.adult) })),
      refused(1, 'token in the query', 400, () => ({ method: 'GET', path: '/patients/contacts/?access_token=abc', headers: this.headers(tokens.adult) })),
      refused(1, 'write with an unknown field', 400, () => ({ method: 'PUT', path: `/patients/appointments/?id=${bookings.adult}`, headers: this.headers(tokens.adult, undefined, json), body: '{"status":"arrived","extra":1}' })),
      refused(1, 'write with another status', 400, () => ({ method: 'PUT', path: `/patients/appointments/?id=${bookings.adult}`, headers: this.headers(tokens.adult, undefined, json), body: '{"status":"cancelled"}' })),
      refused(1, 'write as text/plain', 415, () => ({ method: 'POST', path: '/patients/paymentnotice/', headers: this.headers(tokens.adult, undefined, { 'content-type': 'text/plain' }), body: 'PAID' })),
      refused(1, 'unknown path', 404, () => ({ method: 'GET', path: '/patients/nothing-here/', headers: this.headers(tokens.adult) }), false),

      // Writes on today's bookings: arrivals and payments, repeated (INFO), and an unknown booking (ERROR).
      write(3, 'self arrival', 'PUT', `/patients/appointments/?id=${bookings.adult}`, { status: 'arrived' }, adult, undefined, resultCode(['OK', 'INFO'], false)),
      write(2, 'self payment', 'POST', '/patients/paymentnotice/', { status: 'PAID', contactId: bookings.adult, paymentType: 'CARD' }, adult, undefined, resultCode(['OK', 'INFO'], true)),
      write(2, 'kiosk arrival', 'PUT', `/patients/appointments/?id=${bookings.adult}`, { status: 'arrived' }, kiosk, P.adult, resultCode(['OK', 'INFO'], false)),
      write(1, 'guardian: minor arrival', 'PUT', `/patients/appointments/?id=${bookings.minor}`, { status: 'arrived' }, actor, P.minor, resultCode(['OK', 'INFO'], false)),
      write(1, 'guardian: minor payment', 'POST', '/patients/paymentnotice/', { status: 'PAID', contactId: bookings.minor, paymentType: 'CASH' }, actor, P.minor, resultCode(['OK', 'INFO'], true)),
      write(1, 'arrival on an unknown booking', 'PUT', '/patients/appointments/?id=SOAK-NO-SUCH-BOOKING', { status: 'arrived' }, adult, undefined, resultCode(['ERROR'], false)),
      write(1, "arrival on another patient's booking", 'PUT', `/patients/appointments/?id=${bookings.minor}`, { status: 'arrived' }, adult, undefined, resultCode(['ERROR'], false)),
    ];
  }
}
