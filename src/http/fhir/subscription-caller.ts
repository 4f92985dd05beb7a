/**
 * Who may manage Subscriptions, and with what (docs/fhir-api.md#subscriptions): a person's token
 * naming its app, with a scope naming Subscription in a context that reaches the subscription's
 * patient (`patient/` the launch patient, `user/` everyone the person may act for), and, to create
 * one, a read of the topic's type for that patient. Whom the person may be told of is the use case's
 * check at subscribing (RightToRead); whom the token reaches is decided here first.
 */
import type { FastifyRequest } from 'fastify';
import { consentAllows } from '../../domain/fhir/consent-scopes.js';
import { grantsFor, readsGranted, type Grant, type ScopeContext } from '../../domain/fhir/smart-scopes.js';
import { contextsReaching, launchPatient } from '../../domain/access/scope-reach.js';
import type { SubscriberShows } from '../../domain/notifications/notification-deps.js';
import type { ScopesReach } from '../../domain/notifications/right-to-read.js';
import { subscriptionAllows, subscriptionScopeFor, type SubscriptionInteraction } from '../../domain/fhir/subscription-scopes.js';
import type { PatientAccessPolicy } from '../../domain/access/patient-access.js';
import type { Subscriber } from '../../domain/notifications/subscription.js';
import { readsOfTopic, TOPICS, type TopicName } from '../../domain/notifications/topics.js';
import { ApiError } from '../api-error.js';
import { invalidTokenHeaders } from '../error-mapping.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import {
  accessOpens, contextsFor, grantsOfScopes, grantsShow, insufficientScope, isReferenced, launchPatientOf, requireGrants,
} from './fhir-access.js';
import { cosScopeOf, servedTypes, type FhirApi, type TypeServing } from './fhir-api.js';
import { scopeRefusal } from './patients-of-request.js';
import { basisFor } from '../caller-basis.js';

const scopesOf = (request: FastifyRequest): ReadonlySet<string> => request.token?.grantedScopes ?? request.token?.scopes ?? new Set();

/** The subscriber a request speaks for: the person, their launch patient, the app and the grant of the sign-in. */
export function subscriberOf(request: FastifyRequest, api: FhirApi): Subscriber {
  const token = request.token;
  if (token?.personId === undefined) {
    throw new ApiError(403, 'Subscriptions are a person\'s: sign in as the person to be told (a client token cannot subscribe).');
  }
  // With a subscription key the FHIR door takes a token without client_id; a subscription is kept for the app that made it.
  if (token.clientId === undefined) {
    throw new ApiError(401, 'The access token names no app (client_id or azp): a subscription belongs to the app that makes it, so get a token for a registered app.', invalidTokenHeaders('claims'));
  }
  launchPatientOf(request, api);
  return {
    issuer: token.issuer, subject: token.subject, personId: token.personId, clientId: token.clientId,
    ...(token.smartPatient === undefined ? {} : { smartPatient: token.smartPatient }),
    ...(token.grantId === undefined ? {} : { grantId: token.grantId }),
  };
}

/** Whether the token's Subscription scopes allow `interaction` in one of `contexts`. */
export const allowsOnSubscription = (request: FastifyRequest, interaction: SubscriptionInteraction, contexts: readonly ScopeContext[]): boolean =>
  subscriptionAllows(scopesOf(request), interaction, contexts);

/** 403 naming the scope to ask for unless the token's Subscription scopes allow `interaction` in one of `contexts`. */
export function requireSubscriptionScope(request: FastifyRequest, interaction: SubscriptionInteraction, contexts: readonly ScopeContext[]): void {
  if (allowsOnSubscription(request, interaction, contexts)) return;
  const scope = subscriptionScopeFor(interaction, contexts);
  const v1 = interaction === 'read' || interaction === 'search' ? 'read' : 'write';
  throw new ApiError(403, `The token's scopes do not allow this on Subscription: ask for ${scope} (or user/Subscription.${v1}).`, {
    'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
  });
}

/**
 * 403 unless the token's Subscription scopes allow `interaction` for `patient` (a subscription's, or
 * a new one's) and, for a new one of `topic`, the token may search the topic's type for them without a
 * category restriction: a notification names every new record of its type, as a search finds them, which a
 * read by id alone (`.r`) never did (hostile review helper-143, F5). A patient the token's
 * `patient/` scopes do not reach is refused as any patient one may not act for (scopeRefusal).
 */
export function requireScopesFor(request: FastifyRequest, api: FhirApi, patient: string, interaction: SubscriptionInteraction, topic?: TopicName): void {
  const contexts = contextsFor(request, api, patient);
  try {
    requireSubscriptionScope(request, interaction, contexts);
    if (topic === undefined) return;
    const type = TOPICS[topic].type;
    if (type === 'Consent') {
      if (consentAllows(scopesOf(request), 'search', contexts)) return;
      throw new ApiError(403, 'The token\'s scopes do not allow searching Consent: ask for user/Consent.read (or patient/Consent.rs) to be told of sharing.', {
        'www-authenticate': 'Bearer error="insufficient_scope", scope="user/Consent.read"',
      });
    }
    const allowed = requireGrants(wholeGrants(api, scopesOf(request), 'user'), type, 'search', contexts);
    if (!everyReadOf(topic, allowed)) {
      throw insufficientScope(type, 'search', contexts, (scope) => `The token's scopes reach only some of the records this topic tells of: ask for ${scope}, or each of ${readsOfTopic(topic).map(cosScopeOf).join(' and ')}.`);
    }
  } catch (err) {
    throw scopeRefusal(request, contexts, err);
  }
}

/** The grants of `scopes` without a category restriction: a notification names every record of its type. */
const wholeGrants = (api: FhirApi, scopes: ReadonlySet<string>, context: ScopeContext): Grant[] =>
  grantsOfScopes(scopes, context, api).filter((g) => g.category === undefined);

/**
 * requireScopesFor's test of a new subscription, asked again at sending of the scopes the app's grant
 * holds then (RightToRead): a consent that narrowed them ends a subscription they no longer allow making.
 */
export function scopesReachTopic(api: FhirApi): ScopesReach {
  const numberOf = (id: string): string | undefined => api.ids.identityNumberOf(id);
  return ({ subscriber, patient, topic }, scopes) => {
    const contexts = contextsReaching(subscriber, launchPatient(subscriber, numberOf), patient);
    if (!subscriptionAllows(scopes, 'create', contexts)) return false;
    const type = TOPICS[topic].type;
    if (type === 'Consent') return consentAllows(scopes, 'search', contexts);
    return everyReadOf(topic, grantsFor(wholeGrants(api, scopes, 'user'), type, 'search', contexts));
  };
}

/**
 * Whether `allowed` reach every read a topic follows: a notification tells of the topic's records whichever
 * read holds them, so the bookings' API scope alone may not follow the appointments, which the video
 * meetings are among (a read's scope grants its own records of a type, smart-scopes.ts).
 */
const everyReadOf = (topic: TopicName, allowed: readonly Grant[]): boolean =>
  allowed.length > 0 && readsGranted(readsOfTopic(topic), allowed).length === readsOfTopic(topic).length;

/**
 * What a subscriber may see of a read's written records beside a focus (NotificationDeps.shows), as the FHIR
 * door shows them to the app: a type the person's access opens (accessOpens) and, where the app's scopes are
 * known, one a scope grants for the read and category (grantsShow, the FHIR door's own test); a party with any record (it is named
 * by the focus). An app with a DiagnosticReport scope alone is not told of a result's correction it may not
 * read (hostile review helper-100, F1), nor a journal-note proxy of its note's contact (helper-99, F2).
 */
export function subscriberShows(api: FhirApi): SubscriberShows {
  const numberOf = (id: string): string | undefined => api.ids.identityNumberOf(id);
  const served: ReadonlyMap<string, TypeServing> = new Map(servedTypes(api.forms).map((s) => [s.type, s]));
  return ({ subscriber, patient }, right, read) => {
    const opens = (r: FhirResource): boolean => accessOpens(served.get(r.resourceType), right.access);
    if (right.scopes === undefined) return opens;
    const contexts = contextsReaching(subscriber, launchPatient(subscriber, numberOf), patient);
    const grants = grantsOfScopes(right.scopes, 'user', api);
    return (r) => opens(r) && (isReferenced(r) || grantsShow(grants, contexts, r, read));
  };
}

/**
 * Names the subscription's patient, and on what the person acts for them, in the request's audit
 * record. Where no right holds any more (a guardian whose row ended, still seeing or ending their own
 * subscription), the request reads nothing of the patient's: it is recorded in the person's own log,
 * as theirs, never in the patient's as a refused access that was in fact answered.
 */
export async function noteBasis(request: FastifyRequest, policy: PatientAccessPolicy, patient: string): Promise<void> {
  const basis = await basisFor(request, policy, patient);
  const own = request.token?.personId;
  if (basis === undefined && own !== undefined) {
    request.audit.patientId = own;
    request.audit.delegation = 'self';
    return;
  }
  request.audit.patientId = patient;
  if (basis === undefined) delete request.audit.delegation;
  else request.audit.delegation = basis;
}
