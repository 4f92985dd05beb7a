/**
 * A person's Subscriptions through one app on the FHIR API (docs/fhir-api.md#subscriptions): create (201, `requested`), read, search, delete (then 404), `$status` and `$events`,
 * through the use case that checks, at subscribing, that the person may be told of the topic for the
 * patient. Another person's or another app's subscription is 404, exactly as one that does not exist.
 * Every route is audited before it answers; a creation or deletion is recorded as an attempt before
 * anything is kept, under its topic's step once the body or the kept subscription names the topic.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import { MAX_EVENTS_PER_CALL } from '../../domain/notifications/manage-subscriptions.js';
import { notificationBundle, statusBundle, type BundleContext } from '../../domain/notifications/notification-bundle.js';
import type { StoredSubscription, Subscriber } from '../../domain/notifications/subscription.js';
import type { TopicName } from '../../domain/notifications/topics.js';
import type { AuditedOperation } from '../../domain/operations/fhir-operations.js';
import { subscriptionOperation } from '../../domain/operations/subscription-operations.js';
import { ApiError } from '../api-error.js';
import { refuseBody } from '../no-body.js';
import type { PatientRead } from '../types.js';
import type { RouteDependencies, SubscriptionDependencies } from '../routes/dependencies.js';
import { searchLink, searchset } from './bundle.js';
import { contextsFor } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import { answerType } from './fhir-format.js';
import { patientIdForm, namedPatient, NOT_ALLOWED } from './patients-of-request.js';
import { namingRefusal } from './patient-naming.js';
import { prefersStrictHandling } from './prefer-handling.js';
import { formatParam } from './search-values.js';
import { basisFor } from '../caller-basis.js';
import { allowsOnSubscription, noteBasis, requireScopesFor, requireSubscriptionScope, subscriberOf } from './subscription-caller.js';
import { postedSubscriptionOf, subscriptionResourceOf, type SubscriptionContext } from './subscription-resource.js';
import { theCaller } from './presumed-patient.js';
import { queryPairs } from './form-pairs.js';
import { idsParam } from './search-query.js';

/** The routes' paths below the FHIR base; fhir-routes.ts answers their other methods. */
export const SUBSCRIPTION_PATHS = { list: '/Subscription', one: '/Subscription/:id', status: '/Subscription/:id/$status', events: '/Subscription/:id/$events' } as const;
export const MAX_SUBSCRIPTION_BYTES = 16 * 1024;
const SUBSCRIPTION_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const EVENT_NUMBER = /^\d{1,15}$/;

const notFound = (): ApiError => new ApiError(404, 'No subscription of yours through this app has this id: GET /fhir/Subscription lists yours.');

export interface SubscriptionRouteOptions {
  deps: RouteDependencies;
  door: SubscriptionDependencies;
  /** The topics offered (offeredTopics: `proxy` only while sharing is on). */
  topics: ReadonlySet<TopicName>;
  api: FhirApi;
  now: () => number;
  /** Answers the body as the FHIR routes do (the format asked for). */
  send: (request: FastifyRequest, reply: FastifyReply, body: unknown, format: string | undefined) => FastifyReply;
}

/** Where a Subscription names its patient, told to an app that named one in the address. */
const SUBSCRIPTION_NAMES_ITS_PATIENT = 'a Subscription names its patient in its filter (_criteria, patient=Patient/<id>); '
  + 'GET /fhir/Subscription lists all of yours, or those whose _id you give';

/**
 * The format asked for, after refusing a parameter the route does not take that names a patient (every
 * FHIR route does, threat 57: a list that looked filtered by it would not be), and any it does not take
 * when the caller prefers strict handling.
 */
function formatOf(request: FastifyRequest, isPatientIdForm: (id: string) => boolean, takes: readonly string[] = []): string | undefined {
  const params = queryPairs(request);
  const format = formatParam(params);
  answerType(request, format);
  const others = params.filter(([name]) => name !== '_format' && !takes.includes(name));
  for (const [name, value] of others) {
    // Not `patient=`, which these routes do not take either (helper-209, F2).
    const refusal = namingRefusal('on Subscription', name, value, isPatientIdForm, SUBSCRIPTION_NAMES_ITS_PATIENT);
    if (refusal !== undefined) throw refusal;
  }
  const unknown = others[0];
  if (unknown !== undefined && prefersStrictHandling(request.headers.prefer)) {
    throw new ApiError(400, `This path takes ${['_format', ...takes].join(', ')} only: leave the other parameters out (Prefer: handling=strict).`);
  }
  return format;
}

/** A rule's problem as a refusal naming the element: the rules' own words begin with it (`channel.header line 2 …`). */
const naming = (element: string, problem: string): string => {
  const said = problem.startsWith(element) ? problem : `${element}: ${problem}`;
  return `Subscription.${said}${/[.!?]$/.test(said) ? '' : '.'}`;
};

/** An event number of `$events`: a whole number, or the default when left out. */
function eventNumber(request: FastifyRequest, name: string, otherwise: number): number {
  const values = queryPairs(request).filter(([n]) => n === name).map(([, v]) => v);
  if (values.length === 0) return otherwise;
  const [value] = values;
  if (values.length > 1 || value === undefined || !EVENT_NUMBER.test(value)) throw new ApiError(400, `Parameter ${name} must be one whole number, 0 or more, of at most 15 digits (events are numbered from 1), or left out.`);
  return Number(value);
}

export function subscriptionRoutes(app: FastifyInstance, { deps, door, topics, api, now, send }: SubscriptionRouteOptions): void {
  // A subscription is its person's own, whatever app launch it came from: a refusal before it is found is theirs.
  const isPatientIdForm = patientIdForm(api);
  const config = (operation: AuditedOperation) => ({ operation, errorShape: 'fhir', fhir: true, presumedPatient: theCaller } as const);
  const ctx = (): SubscriptionContext => ({ publicBaseUrl: api.publicBaseUrl, ids: api.ids });
  const bundles = (): BundleContext => ({ fhirBase: `${api.publicBaseUrl}/fhir`, nowMs: now(), newId: randomUUID });
  const audited = (request: FastifyRequest, step: 'subscribe' | 'unsubscribe', topic: TopicName): void => {
    request.audit.operation = subscriptionOperation(step, topic);
  };

  /** The caller's own subscription `id`, reached by the token's scopes for `interaction`, its patient named in the audit; 404 for any other. */
  async function own(request: FastifyRequest, subscriber: Subscriber, interaction: 'read' | 'delete'): Promise<StoredSubscription> {
    // A token without the scope in any context is refused before anything is looked up.
    requireSubscriptionScope(request, interaction, ['patient', 'user']);
    const { id } = request.params as { id: string };
    if (!SUBSCRIPTION_ID.test(id)) throw notFound();
    let s: StoredSubscription;
    try {
      s = await door.manage.get(subscriber, id);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'NOT_FOUND') throw notFound();
      throw err;
    }
    if (interaction === 'delete') audited(request, 'unsubscribe', s.topic);
    await noteBasis(request, deps.accessPolicy, s.patient);
    requireScopesFor(request, api, s.patient, interaction);
    return interaction === 'read' ? door.manage.current(s) : s;
  }

  app.post(SUBSCRIPTION_PATHS.list, { config: config('createSubscription'), bodyLimit: MAX_SUBSCRIPTION_BYTES }, async (request, reply) => {
    const format = formatOf(request, isPatientIdForm);
    const subscriber = subscriberOf(request, api);
    requireSubscriptionScope(request, 'create', ['patient', 'user']);
    const posted = postedSubscriptionOf(request.body, { ...ctx(), topics, nowMs: now() });
    audited(request, 'subscribe', posted.topic);
    const patient = namedPatient(request, api, posted.patientId);
    if (patient === undefined) throw new ApiError(403, NOT_ALLOWED);
    request.audit.patientId = patient;
    requireScopesFor(request, api, patient, 'create', posted.topic);
    // The right first: a 400 on the channel must not tell a stranger that a Patient id is real.
    const basis = await basisFor(request, deps.accessPolicy, patient);
    if (basis === undefined) throw new ApiError(403, NOT_ALLOWED);
    request.audit.delegation = basis;
    const endpoint = door.checkEndpoint(posted.channel.endpoint, subscriber.clientId);
    if (!endpoint.allowed) throw new ApiError(400, naming('channel.endpoint', endpoint.problem));
    const header = door.headerProblem(posted.channel.headers);
    if (header !== undefined) throw new ApiError(400, naming('channel.header', header));
    const { patientId: _id, channel, ...asked } = posted;
    let s: StoredSubscription;
    try {
      // Kept and sent to as normalised, the URL the rules compared (never the text as posted).
      s = await door.manage.create(subscriber, { ...asked, channel: { ...channel, endpoint: endpoint.endpoint }, patient }, () => request.server.recordWriteAttempt(request));
    } catch (err) {
      // Named as the same person's refused read of the patient is (helper-205, F1): a proxy or a registry delegate the
      // topic is not open to, on their relationship, so the patient learns who tried; one the policy refuses outright
      // (a delegate of a protected person), on none. Looked up by the audit (refusalSubject): the registry was read
      // above for this patient, so the lookup's timing tells nothing more.
      if (err instanceof DomainError && err.code === 'ACCESS_DENIED') {
        delete request.audit.delegation;
        request.audit.lookUpBasis = true;
      }
      throw err;
    }
    try {
      door.created?.(s);
    } catch (err) {
      // Kept already: its handshake is due now and goes on the engine's next turn.
      request.log.error({ err }, 'a new subscription could not be handed to the sender');
    }
    reply.code(201).header('location', `${api.publicBaseUrl}/fhir/Subscription/${s.id}`);
    return send(request, reply, subscriptionResourceOf(s, ctx()), format);
  });

  app.get(SUBSCRIPTION_PATHS.list, { config: config('searchSubscriptions') }, async (request, reply) => {
    const format = formatOf(request, isPatientIdForm, ['_id']);
    const ids = idsParam(queryPairs(request));
    const subscriber = subscriberOf(request, api);
    requireSubscriptionScope(request, 'search', ['patient', 'user']);
    const shown = (await door.manage.list(subscriber))
      .filter((s) => (ids?.has(s.id) ?? true) && allowsOnSubscription(request, 'search', contextsFor(request, api, s.patient)));
    const read = new Map<string, PatientRead>();
    for (const patient of new Set(shown.map((s) => s.patient))) {
      // One whose right lapsed still sees their own subscription (off): that reads nothing of the patient's, so is not in their log.
      const delegation = await basisFor(request, deps.accessPolicy, patient);
      if (delegation !== undefined) read.set(patient, { delegation, withheld: 0 });
    }
    if (read.size > 0) request.audit.patientsRead = read;
    else await noteBasis(request, deps.accessPolicy, subscriber.personId);
    const matches = shown.map((s) => subscriptionResourceOf(s, ctx()));
    return send(request, reply, searchset(api.publicBaseUrl, { total: matches.length, matches, includes: [], self: searchLink(api.publicBaseUrl, 'Subscription', ids === undefined ? [] : [['_id', [...ids].join(',')]]), subsetted: false }), format);
  });

  app.get(SUBSCRIPTION_PATHS.one, { config: config('readSubscription') }, async (request, reply) => {
    const format = formatOf(request, isPatientIdForm);
    const s = await own(request, subscriberOf(request, api), 'read');
    return send(request, reply, subscriptionResourceOf(s, ctx()), format);
  });

  app.delete(SUBSCRIPTION_PATHS.one, { config: config('deleteSubscription') }, async (request, reply) => {
    refuseBody(request, 'DELETE /fhir/Subscription/{id}');
    const format = formatOf(request, isPatientIdForm);
    const subscriber = subscriberOf(request, api);
    const s = await own(request, subscriber, 'delete');
    await door.manage.remove(subscriber, s.id, () => request.server.recordWriteAttempt(request));
    const ended = { ...s, status: 'off' as const, endReason: 'deleted' as const, changedMs: now() };
    return send(request, reply, subscriptionResourceOf(ended, ctx()), format);
  });

  app.get(SUBSCRIPTION_PATHS.status, { config: config('getSubscriptionStatus') }, async (request, reply) => {
    const format = formatOf(request, isPatientIdForm);
    const s = await own(request, subscriberOf(request, api), 'read');
    return send(request, reply, statusBundle(s, bundles()), format);
  });

  app.get(SUBSCRIPTION_PATHS.events, { config: config('getSubscriptionEvents') }, async (request, reply) => {
    const format = formatOf(request, isPatientIdForm, ['eventsSinceNumber', 'eventsUntilNumber']);
    const since = eventNumber(request, 'eventsSinceNumber', 1);
    const until = eventNumber(request, 'eventsUntilNumber', since + MAX_EVENTS_PER_CALL - 1);
    // An empty history would say nothing happened; the range is the caller's mistake (hostile review helper-141, F4).
    if (until < since) {
      throw new ApiError(400, 'Parameter eventsUntilNumber must be eventsSinceNumber or more (eventsSinceNumber is 1 when left out): '
        + 'ask for the events from one number to the same or a later one.');
    }
    const s = await own(request, subscriberOf(request, api), 'read');
    // Its events name the topic's records: a read of their type, asked as making it asks (hostile review helper-125, F1).
    requireScopesFor(request, api, s.patient, 'read', s.topic);
    const { subscription, events } = await door.manage.events(s, since, until);
    return send(request, reply, notificationBundle(subscription, 'query-event', events, bundles()), format);
  });
}
