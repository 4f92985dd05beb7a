/**
 * A subscription as the Subscriptions R5 Backport IG's R4 Subscription (profile
 * `backport-subscription`, docs/fhir-api.md#subscriptions), both ways: the topic's canonical URL in
 * `criteria`, one patient in its `backport-filter-criteria` extension, a rest-hook channel with the
 * payload content, heartbeat, timeout and max-count extensions. A posted Subscription is read by the
 * same mapping, and what cannot be one is refused naming the element and saying what to send. The
 * patient is named by the Patient id this service gives, never by an identity number.
 */
import { DomainError } from '../../domain/errors.js';
import { isStrictDateTime, rangeOf } from '../../domain/fhir/fhir-dates.js';
import type { SubscriptionRequest } from '../../domain/notifications/manage-subscriptions.js';
import { BACKPORT_IG, endError, topicUrl } from '../../domain/notifications/notification-bundle.js';
import type { Channel, PayloadContent, StoredSubscription } from '../../domain/notifications/subscription.js';
import { TOPICS, isTopicName, type TopicName } from '../../domain/notifications/topics.js';
import { namesAPerson } from '../../domain/redaction/names-a-person.js';
import type { FhirIds } from '../../ports/fhir-ids.port.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { FHIR_PREFIXES } from './fhir-api.js';
import { elementPath, memberPath, modifierAt } from './posted-members.js';
import { channelExtensionsOf, channelOptionsOf } from './subscription-channel.js';

const SD = `${BACKPORT_IG}/StructureDefinition`;
export const SUBSCRIPTION_PROFILE = `${SD}/backport-subscription`;
const FILTER = `${SD}/backport-filter-criteria`;
const CONTENT = `${SD}/backport-payload-content`;
const CHANNEL_TYPE = `${SD}/backport-channel-type`;
const FHIR_JSON = 'application/fhir+json';
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const MAX_REASON = 1000;
/**
 * What an R4 string holds not (R4 §2.1.28: no character below U+0020 but tab, CR and LF; Unicode, so no half of a
 * surrogate pair), and PostgreSQL's JSON stores not: a reason holding U+0000 was a 503 there (re-review helper-197, F2).
 */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const NOT_R4_STRING = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** The last millisecond a FHIR instant can write (9999-12-31T23:59:59.999Z). */
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
// A FHIR instant: to the second at least, with a zone.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** Where the resources point: PUBLIC_BASE_URL (with BASE_PATH), and the ids of Patients. */
export interface SubscriptionContext {
  publicBaseUrl: string;
  ids: FhirIds;
}

/** What reading a posted one also needs: the topics offered, and now (an `end` must be after it). */
export interface PostContext extends SubscriptionContext {
  topics: ReadonlySet<TopicName>;
  nowMs: number;
}

/** A posted subscription as read: the use case's request, its patient still the Patient id the filter names. */
export type PostedSubscription = Omit<SubscriptionRequest, 'patient'> & { patientId: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (message: string): DomainError => new DomainError('INVALID_REQUEST', message);

/** The extensions of a primitive element (`_criteria`, `_payload`) with `url`. */
const extensionsOf = (element: unknown, url: string): Json[] =>
  (isObject(element) && Array.isArray(element.extension) ? element.extension.filter((e): e is Json => isObject(e) && e.url === url) : []);

/** The topic a `criteria` names: its canonical URL under /fhir or the vendor's alias, of a topic offered. */
function topicOf(criteria: unknown, ctx: PostContext): TopicName {
  const offered = [...ctx.topics].map((t) => topicUrl(`${ctx.publicBaseUrl}/fhir`, t)).join(', ');
  const refused = invalid(`Subscription.criteria must be the canonical URL of a topic offered here, one of: ${offered} (GET /fhir/metadata lists them).`);
  if (typeof criteria !== 'string') throw refused;
  const base = FHIR_PREFIXES.map((prefix) => `${ctx.publicBaseUrl}${prefix}/SubscriptionTopic/`).find((b) => criteria.startsWith(b));
  const name = base === undefined ? undefined : criteria.slice(base.length);
  if (name === undefined || !isTopicName(name) || !ctx.topics.has(name)) throw refused;
  return name;
}

/** The one patient of the topic's filter, `<Type>?patient=<Patient id>` (or `Patient/<id>`): the Patient id as given. */
function patientOf(element: unknown, topic: TopicName): string {
  const type = TOPICS[topic].type;
  const what = `The backport-filter-criteria extension of Subscription.criteria must be exactly one ${type}?patient=<Patient id>`;
  const filters = extensionsOf(element, FILTER);
  const [filter] = filters;
  if (filters.length !== 1 || filter === undefined) throw invalid(`${what}: one patient per subscription.`);
  const text = filter.valueString;
  if (typeof text === 'string' && namesAPerson(text)) {
    throw invalid(`${what}: name the patient by the Patient id this service gives (GET /fhir/Patient), never an identity number.`);
  }
  const query = typeof text === 'string' && text.startsWith(`${type}?`) ? [...new URLSearchParams(text.slice(type.length + 1))] : [];
  const [param] = query;
  const id = param !== undefined && param[0] === 'patient' ? param[1].replace(/^Patient\//, '') : '';
  if (query.length !== 1 || !FHIR_ID.test(id)) throw invalid(`${what}, with the topic's type and only the patient parameter: one patient, by the id GET /fhir/Patient gives.`);
  return id;
}

/** `channel.payload` and its content: `application/fhir+json`, with `empty` or `id-only`. */
function payloadOf(channel: Json): PayloadContent {
  if (channel.payload !== FHIR_JSON) throw invalid(`Subscription.channel.payload must be ${FHIR_JSON}.`);
  const contents = extensionsOf(channel._payload, CONTENT);
  const code = contents.length === 1 ? contents[0]?.valueCode : undefined;
  if (code === 'full-resource') {
    throw invalid('The backport-payload-content of Subscription.channel.payload cannot be full-resource: no record content leaves through a notification. Send id-only (then read each resource with your token) or empty.');
  }
  if (code !== 'empty' && code !== 'id-only') throw invalid('Subscription.channel.payload needs exactly one backport-payload-content extension: empty or id-only.');
  return code;
}

/** The channel a posted `channel` asks for: a rest-hook to an endpoint, its payload, headers and options. */
function channelOf(channel: unknown): Channel {
  if (!isObject(channel)) throw invalid('Subscription.channel must be an object: type rest-hook, endpoint, payload.');
  if (channel.type !== 'rest-hook' || extensionsOf(channel._type, CHANNEL_TYPE).length > 0) {
    throw invalid('Subscription.channel.type must be rest-hook: notifications are POSTed to your endpoint, the only channel offered.');
  }
  const endpoint = channel.endpoint;
  if (typeof endpoint !== 'string' || !URL.canParse(endpoint)) throw invalid('Subscription.channel.endpoint must be the absolute https URL notifications are POSTed to.');
  const header = channel.header ?? [];
  if (!Array.isArray(header) || !header.every((h) => typeof h === 'string')) {
    throw invalid('Subscription.channel.header must be a list of strings, each "Name: value", sent with every notification.');
  }
  return { endpoint, headers: header, payload: payloadOf(channel), ...channelOptionsOf(channel.extension) };
}

/** `end`: an instant in the future, in milliseconds; a day or hour the calendar does not have (30 February) is refused, never rolled over (helper-155, F3). */
function endOf(end: unknown, nowMs: number): number {
  // The zone is the instant's own: the range's start is the instant, to the millisecond.
  const ms = typeof end === 'string' && INSTANT.test(end) && isStrictDateTime(end) ? Math.floor(rangeOf(end, 'UTC')?.start ?? Number.NaN) : Number.NaN;
  // Past year 9999 in UTC it could not be written back as an instant (helper-156, F5).
  if (!Number.isFinite(ms) || ms <= nowMs || ms > LAST_INSTANT_MS) throw invalid('Subscription.end must be an instant in the future with its zone, e.g. 2027-01-01T00:00:00Z, or left out.');
  return ms;
}

/** R4's members of Subscription and of its channel, each primitive's `_` form too: any other is a misspelling or another version's, refused, never passed over. */
const SUBSCRIPTION_MEMBERS = withPrimitiveForms(['resourceType', 'id', 'meta', 'implicitRules', 'language', 'text', 'contained', 'extension', 'modifierExtension',
  'status', 'contact', 'end', 'reason', 'criteria', 'error', 'channel'], ['id', 'implicitRules', 'language', 'status', 'end', 'reason', 'criteria', 'error']);
const CHANNEL_MEMBERS = withPrimitiveForms(['id', 'extension', 'modifierExtension', 'type', 'endpoint', 'payload', 'header'], ['type', 'endpoint', 'payload', 'header']);

function withPrimitiveForms(members: readonly string[], primitives: readonly string[]): ReadonlySet<string> {
  return new Set([...members, ...primitives.map((p) => `_${p}`)]);
}

/** `value`'s first member not among `known` (`Subscription.ends` for `end`), refused with its path. */
function onlyR4Members(element: string, value: Json, known: ReadonlySet<string>): void {
  const other = Object.keys(value).find((member) => !known.has(member));
  if (other !== undefined) throw invalid(`${memberPath(element, other)} is not a member of an R4 Subscription this service reads: leave it out, or spell it as FHIR R4 does.`);
}

/** The subscription a posted R4 Subscription asks for; a DomainError (400) naming the element otherwise. */
export function postedSubscriptionOf(body: unknown, ctx: PostContext): PostedSubscription {
  if (!isObject(body) || body.resourceType !== 'Subscription') throw invalid('The body must be a FHIR Subscription resource (resourceType "Subscription") of the backport-subscription profile.');
  const modifier = modifierAt(body, 'Subscription');
  if (modifier !== undefined) throw invalid(`${elementPath(modifier)} is not understood here: leave it out.`);
  onlyR4Members('Subscription', body, SUBSCRIPTION_MEMBERS);
  if (isObject(body.channel)) onlyR4Members('Subscription.channel', body.channel, CHANNEL_MEMBERS);
  // A modifier element too: rules the resource was written under, which would change what it means.
  if (body.implicitRules !== undefined || body._implicitRules !== undefined) throw invalid('Subscription.implicitRules is not understood here: leave it out.');
  if (body.status !== undefined && body.status !== 'requested') throw invalid('Subscription.status must be requested, or left out: a new subscription waits for its handshake.');
  const topic = topicOf(body.criteria, ctx);
  const posted: PostedSubscription = { topic, patientId: patientOf(body._criteria, topic), channel: channelOf(body.channel) };
  if (body.end !== undefined) posted.endMs = endOf(body.end, ctx.nowMs);
  if (body.reason !== undefined) {
    if (typeof body.reason !== 'string' || body.reason.trim() === '' || body.reason.length > MAX_REASON || NOT_R4_STRING.test(body.reason)) {
      throw invalid(`Subscription.reason must be text of 1 to ${MAX_REASON} characters, without control characters (but tab and line breaks) or half of a surrogate pair, or left out.`);
    }
    posted.reason = body.reason;
  }
  return posted;
}

/** The subscription as the backport's R4 Subscription its owner posted, with its id, status and, once stopped, why. */
export function subscriptionResourceOf(s: StoredSubscription, ctx: SubscriptionContext): FhirResource {
  const fhirBase = `${ctx.publicBaseUrl}/fhir`;
  const error = endError(s.endReason);
  return {
    resourceType: 'Subscription',
    id: s.id,
    meta: { profile: [SUBSCRIPTION_PROFILE], lastUpdated: new Date(s.changedMs).toISOString() },
    status: s.status,
    ...(s.endMs === undefined ? {} : { end: new Date(s.endMs).toISOString() }),
    // R4 requires a reason; one not given is what the topic tells.
    reason: s.reason ?? `Told ${TOPICS[s.topic].told.en}`,
    criteria: topicUrl(fhirBase, s.topic),
    _criteria: { extension: [{ url: FILTER, valueString: `${TOPICS[s.topic].type}?patient=${ctx.ids.patientId(s.patient)}` }] },
    ...(error === undefined ? {} : { error: error.text }),
    channel: {
      extension: channelExtensionsOf(s.channel),
      type: 'rest-hook',
      endpoint: s.channel.endpoint,
      payload: FHIR_JSON,
      _payload: { extension: [{ url: CONTENT, valueCode: s.channel.payload }] },
      ...(s.channel.headers.length === 0 ? {} : { header: [...s.channel.headers] }),
    },
  };
}
