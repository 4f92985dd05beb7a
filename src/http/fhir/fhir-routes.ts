/**
 * The FHIR R4 API's routes (docs/fhir-api.md), registered under each prefix (`/fhir` and the vendor's
 * `/api/open/fhir`): discovery open to anyone, then per type served a search (GET, and POST
 * `_search` with a form body), a read by id, the patient summary (`Patient/<id>/$summary`), the
 * grants a person gave (Consent) and the Subscriptions a person keeps where the region offers them,
 * HEAD like GET, and 405 for any other method. Every data route names the operation it is audited under and
 * answers errors as an OperationOutcome.
 */
import { JsonAnswer } from '../serialization/json-answer.js';
import type { LargeAnswers } from '../serialization/large-answers.js';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { FhirType } from '../../domain/fhir/search-parameters.js';
import { FHIR_OPERATIONS, fhirOperationPath } from '../../domain/operations/fhir-operations.js';
import type { OperationName } from '../../domain/operations/table.js';
import { ApiError, MESSAGES } from '../api-error.js';
import { MEDIA_TYPE_MESSAGES } from '../error-mapping.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { auditEventRead, auditEventSearch } from './audit-events.js';
import { offeredTopics } from '../../domain/notifications/topics.js';
import { SUBSCRIPTION_SCOPES } from '../../domain/fhir/subscription-scopes.js';
import { capabilityResources, capabilityStatement, CONSENT_CAPABILITY, subscriptionCapability } from './capability-statement.js';
import { consentRoutes, MAX_CONSENT_BYTES } from './consent-routes.js';
import { acceptFhirJson } from './fhir-json-body.js';
import { listedTypes, servedTypes, type FhirApi, type TypeServing } from './fhir-api.js';
import { answerType } from './fhir-format.js';
import { FhirInteractions } from './fhir-interactions.js';
import { patientIdForm } from './patients-of-request.js';
import { parseSearch, readPatientParam } from './search-query.js';
import { formatParam } from './search-values.js';
import { PatientSummary } from './patient-summary.js';
import { smartConfiguration } from './smart-configuration.js';
import { WrittenForms } from './written-forms.js';
import { prefersStrictHandling } from './prefer-handling.js';
import { MAX_SUBSCRIPTION_BYTES, SUBSCRIPTION_PATHS, subscriptionRoutes } from './subscription-routes.js';
import { presumedPatient } from './presumed-patient.js';
import { formPairs, queryPairs } from './form-pairs.js';
import { utf8Body } from '../json-body.js';

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const MAX_FORM_BYTES = 16 * 1024;
const NOT_SERVED_METHODS = ['PUT', 'PATCH', 'DELETE', 'POST', 'TRACE'];
/** What the Consent paths serve (consent-routes.ts): a grant is given and ended, never changed. */
const CONSENT_ALLOW = 'GET, HEAD, POST';
const A_CONSENT_ALLOW = 'GET, HEAD, DELETE';
const CONSENT_NOT_CHANGED = 'A Consent is given (POST) and ended (DELETE), never changed';
/** What the Subscription paths serve (subscription-routes.ts): one is created and deleted, never changed. */
const SUBSCRIPTION_ALLOW = 'GET, HEAD, POST';
const A_SUBSCRIPTION_ALLOW = 'GET, HEAD, DELETE';
const SUBSCRIPTION_NOT_CHANGED = 'A Subscription is created (POST) and deleted (DELETE), never changed';
/** `$status` and `$events` (hostile review helper-141, F3: they said "This API is read-only", of a type that takes POST and DELETE). */
const SUBSCRIPTION_OPERATIONS_READ = "A subscription's $status and $events are read, never changed";

/**
 * The parameters of a request in the order given: the query string (queryPairs), then a `_search` form
 * body.
 */
function paramsOf(request: FastifyRequest): [string, string][] {
  const body = typeof request.body === 'string' ? formPairs(request.body) : [];
  return [...queryPairs(request), ...body];
}

/**
 * The answer as JSON (or as the bytes of JSON already written: searchset-bytes.ts); a large one only
 * while there is room for it (SEND_MAX_LARGE_ANSWERS, src/http/serialization/large-answers.ts).
 */
function send(request: FastifyRequest, reply: FastifyReply, body: unknown, format: string | undefined, room: LargeAnswers | undefined): FastifyReply {
  const untyped: FastifyReply = reply;
  const type = answerType(request, format);
  if (body instanceof JsonAnswer) {
    room?.admit(body.byteLength, reply.raw);
    // Its length is known, so a streamed answer goes out with Content-Length like any other (as the COS door's).
    return untyped.type(type).header('content-length', body.byteLength).send(body.body());
  }
  const text = JSON.stringify(body);
  room?.admitText(text, reply.raw);
  return untyped.type(type).send(text);
}

/** The operation a type's records are audited and shown in the access log under: its first read's (the access log's for AuditEvent). */
function operationOfType(serving: TypeServing): OperationName {
  if (serving.type === 'AuditEvent') return 'getAccessLog';
  const [first] = serving.reads;
  if (first === undefined) throw new Error(`no read serves ${serving.type}`);
  return first;
}

export interface FhirRouteOptions {
  deps: RouteDependencies;
  api: FhirApi;
  /** The clock the CapabilityStatement's date is read from. */
  now: () => number;
}

export const fhirRoutes: FastifyPluginAsync<FhirRouteOptions> = async (app: FastifyInstance, { deps, api, now }) => {
  // One memo of written forms per API instance, shared by the interactions and the summary (written-forms.ts).
  const written = new WrittenForms();
  const interactions = new FhirInteractions(deps, api, written);
  const served = interactions.servedTypes();
  const summary = new PatientSummary(deps, api, written, served);
  // Consent (the grants a person gave) only where the region offers sharing (PROXY_GRANTS, docs/contract.md §11).
  const sharing = deps.proxyGrants !== undefined;
  const listed = capabilityResources(listedTypes(served, api.readsOff));
  const capabilities = sharing ? [...listed, CONSENT_CAPABILITY] : listed;
  // Subscription only where the region offers notifications (SUBSCRIPTIONS, docs/fhir-api.md#subscriptions); its `proxy` topic only with sharing.
  const subscriptions = deps.subscriptions;
  const topics = offeredTopics(sharing);
  const open = { open: true, errorShape: 'fhir' } as const;
  const isPatientIdForm = patientIdForm(api);
  const scopes = ['patient/*.read', 'user/*.read', 'system/*.read', ...served.flatMap((s) => [`patient/${s.type}.rs`, `user/${s.type}.rs`, `system/${s.type}.rs`]),
    ...(sharing ? ['patient/Consent.rs', 'patient/Consent.cud', 'user/Consent.read', 'user/Consent.write'] : []), ...(subscriptions === undefined ? [] : SUBSCRIPTION_SCOPES)];
  // Described by its CapabilityStatement, not by the COS API's OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  // A form is a `_search` body only: posted to a create (a Consent, a Subscription) it is refused as any other media type there.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: MAX_FORM_BYTES }, (request, body, done) => {
    if (request.routeOptions.url?.endsWith('/_search') !== true) return done(new ApiError(415, MEDIA_TYPE_MESSAGES.fhir), undefined);
    const text = utf8Body(request, body as Buffer, { kind: 'A form', what: 'the form' });
    return text instanceof ApiError ? done(text, undefined) : done(null, text);
  });
  acceptFhirJson(app, Math.max(MAX_CONSENT_BYTES, MAX_SUBSCRIPTION_BYTES));

  // Discovery is public, for any web app's origin (SMART App Launch 2, §2.1).
  app.get('/metadata', { config: open }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    // The base is read now: without PUBLIC_BASE_URL it is the address bound, known once listening.
    const resources = subscriptions === undefined ? capabilities : [...capabilities, subscriptionCapability(api.publicBaseUrl, topics)];
    return send(request, reply, capabilityStatement(resources, api.publicBaseUrl, api.smart, new Date(now())), formatParam(paramsOf(request)), deps.largeAnswers);
  });
  // SMART App Launch serves its configuration as plain JSON (a .well-known document, not a FHIR resource).
  app.get('/.well-known/smart-configuration', { config: open }, async (_request, reply) => {
    const untyped: FastifyReply = reply;
    return untyped.header('access-control-allow-origin', '*').type('application/json; charset=utf-8').send(JSON.stringify(smartConfiguration(api.smart, scopes)));
  });
  const notAllowed = (allow: string, what = 'This API is read-only', message = `${what}: ${allow} only.`) => async () => {
    throw new ApiError(405, message, { allow });
  };
  // Every known path asked with a method it does not serve is 405 with Allow, with or without
  // credentials, as on the COS API (src/http/routed-methods.ts), refused in onRequest so that
  // nothing is read to say so: a FHIR update's body (application/fhir+json) is not a 415.
  const notServed = (url: string, methods = NOT_SERVED_METHODS, allow = 'GET, HEAD', message?: string) => {
    const refuse = notAllowed(allow, undefined, message);
    app.route({ method: methods, url, config: open, onRequest: refuse, handler: refuse });
  };
  notServed('/metadata');
  notServed('/.well-known/smart-configuration');

  // A `_search` body is a form (FHIR R4 §3.1.0.5.1): any other media type is 415 saying so, checked
  // after the credentials (a refusal for them comes first, as on the COS API), never parsed as JSON and ignored.
  const formOnly = async (request: FastifyRequest, _reply: FastifyReply, payload: RequestPayload): Promise<RequestPayload> => {
    const type = request.headers['content-type'];
    if (type !== undefined && !/^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)) {
      throw new ApiError(415, 'A _search body is a form: send Content-Type: application/x-www-form-urlencoded, or put the parameters in the URL.');
    }
    return payload;
  };

  for (const serving of served) {
    const type: FhirType = serving.type;
    const config = { operation: operationOfType(serving), errorShape: 'fhir', fhir: true, presumedPatient: presumedPatient(api, { type }) } as const;
    const byIdConfig = { ...config, presumedPatient: presumedPatient(api, type === 'Patient' ? { idNamesPatient: true } : { byId: true }) };
    const search = async (request: FastifyRequest, reply: FastifyReply) => {
      // A token is taken from the Authorization header only (docs/contract.md#token-kinds): one in a `_search`
      // form body is refused as one in the query string is (src/http/plugins/credentials.ts), never ignored.
      if (typeof request.body === 'string' && new URLSearchParams(request.body).has('access_token')) throw new ApiError(400, MESSAGES.tokenInQuery);
      const params = paramsOf(request);
      const strict = prefersStrictHandling(request.headers.prefer);
      const format = formatParam(params);
      answerType(request, format);
      const parsed = parseSearch(type, params, { zone: deps.zone, strict, isPatientIdForm });
      const bundle = type === 'AuditEvent' ? await auditEventSearch(request, reply, deps, api, parsed) : await interactions.search(request, reply, parsed);
      return send(request, reply, bundle, format, deps.largeAnswers);
    };
    app.get(`/${type}`, { config }, search);
    app.post(`/${type}/_search`, { config, preParsing: formOnly }, search);
    app.get(`/${type}/:id`, { config: byIdConfig }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const params = paramsOf(request);
      const format = formatParam(params);
      answerType(request, format);
      if (!FHIR_ID.test(id)) throw new ApiError(400, `A ${type} id is 1 to 64 letters, digits, '-' or '.': take it from a search's entries.`);
      const patient = readPatientParam(params, isPatientIdForm);
      if (type === 'AuditEvent') {
        const named = parseSearch(type, patient === undefined ? [] : [['patient', patient]], { zone: deps.zone, strict: false, isPatientIdForm });
        return send(request, reply, await auditEventRead(request, reply, deps, api, named, id), format, deps.largeAnswers);
      }
      return send(request, reply, await interactions.read(request, reply, type, id, patient), format, deps.largeAnswers);
    });
    notServed(`/${type}/:id`);
    notServed(`/${type}`);
    // `_search` takes POST alone: any other method is 405 naming it, not a read of an id `_search`.
    notServed(`/${type}/_search`, [...NOT_SERVED_METHODS.filter((m) => m !== 'POST'), 'GET'], 'POST', searchByPostOnly(type));
  }

  consentRoutes(app, { deps, api, send: (request, reply, body, format) => send(request, reply, body, format, deps.largeAnswers) });
  // A grant is given and ended, never changed: to change what someone sees, end it and give a new one.
  const consentNotServed = (url: string, methods: string[], allow: string) =>
    app.route({ method: methods, url, config: open, onRequest: notAllowed(allow, CONSENT_NOT_CHANGED), handler: notAllowed(allow) });
  consentNotServed('/Consent', ['PUT', 'PATCH', 'DELETE', 'TRACE'], CONSENT_ALLOW);
  consentNotServed('/Consent/:id', ['PUT', 'PATCH', 'POST', 'TRACE'], A_CONSENT_ALLOW);

  if (subscriptions !== undefined) {
    subscriptionRoutes(app, { deps, door: subscriptions, topics, api, now, send: (request, reply, body, format) => send(request, reply, body, format, deps.largeAnswers) });
    const subscriptionNotServed = (url: string, methods: string[], allow: string, what = SUBSCRIPTION_NOT_CHANGED) =>
      app.route({ method: methods, url, config: open, onRequest: notAllowed(allow, what), handler: notAllowed(allow, what) });
    subscriptionNotServed(SUBSCRIPTION_PATHS.list, ['PUT', 'PATCH', 'DELETE', 'TRACE'], SUBSCRIPTION_ALLOW);
    subscriptionNotServed(SUBSCRIPTION_PATHS.one, ['PUT', 'PATCH', 'POST', 'TRACE'], A_SUBSCRIPTION_ALLOW);
    for (const url of [SUBSCRIPTION_PATHS.status, SUBSCRIPTION_PATHS.events]) subscriptionNotServed(url, NOT_SERVED_METHODS, 'GET, HEAD', SUBSCRIPTION_OPERATIONS_READ);
  }

  const summaryPath = fhirOperationPath(FHIR_OPERATIONS.getPatientSummary);
  const summaryConfig = { operation: 'getPatientSummary', errorShape: 'fhir', fhir: true, presumedPatient: presumedPatient(api, { idNamesPatient: true }) } as const;
  app.get(summaryPath, { config: summaryConfig }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const params = paramsOf(request);
    const format = formatParam(params);
    answerType(request, format);
    if (!FHIR_ID.test(id)) throw new ApiError(400, 'A Patient id is 1 to 64 letters, digits, \'-\' or \'.\': take it from a Patient search.');
    const patient = readPatientParam(params, isPatientIdForm);
    return send(request, reply, await summary.document(request, reply, id, new Date(now()), patient), format, deps.largeAnswers);
  });
  notServed(summaryPath);
};

/**
 * For a request the router has no route for (a method Fastify does not route, such as PROPFIND, or
 * OPTIONS where no CORS origin is set): the 405 with `Allow` of a FHIR path, as
 * src/http/routed-methods.ts gives the COS API's paths, or undefined for a path the API does not
 * serve (404). docs/fhir-api.md#interactions: HEAD like GET, other methods 405.
 */
export function fhirMethodNotAllowed(basePath: string, api: FhirApi, subscriptions = false): (url: string) => ApiError | undefined {
  const types: ReadonlySet<string> = new Set(servedTypes(api.forms).map((s) => s.type));
  const operations: ReadonlySet<string> = new Set(Object.values(FHIR_OPERATIONS).map((op) => `${op.type}/$${op.code}`));
  return (url) => {
    const path = (url.split('?')[0] ?? '').replace(/\/$/, '');
    if (!path.startsWith(basePath)) return undefined;
    const below = /^\/(?:api\/open\/)?fhir\/(.+)$/.exec(path.slice(basePath.length))?.[1];
    if (below === undefined) return undefined;
    const [type = '', second, ...more] = below.split('/');
    let allow: string | undefined;
    if (below === 'metadata' || below === '.well-known/smart-configuration') allow = 'GET, HEAD';
    // Consent's routes are registered whether or not sharing is on (off, each answers 403), so their paths are known alike.
    else if (type === 'Consent' && more.length === 0) allow = second === undefined ? CONSENT_ALLOW : A_CONSENT_ALLOW;
    // Subscription's only where they are served: with SUBSCRIPTIONS=off it is a type like any other not served (404).
    else if (type === 'Subscription' && subscriptions) allow = subscriptionAllow(second, more);
    else if (types.has(type) && more.length === 0) allow = second === '_search' ? 'POST' : 'GET, HEAD';
    else if (more.length === 1 && operations.has(`${type}/${more[0] ?? ''}`)) allow = 'GET, HEAD';
    if (allow === undefined) return undefined;
    if (second === '_search' && allow === 'POST') return new ApiError(405, searchByPostOnly(type), { allow });
    const what = type === 'Consent' ? CONSENT_NOT_CHANGED : type === 'Subscription' && more.length === 0 ? SUBSCRIPTION_NOT_CHANGED : 'This API is read-only';
    return new ApiError(405, `${what}: ${allow} only.`, { allow });
  };
}

/** A `_search` asked any way but POST: what to send instead ("read-only: POST only" contradicted itself). */
function searchByPostOnly(type: string): string {
  return `POST /fhir/${type}/_search takes the search parameters as a form (application/x-www-form-urlencoded); GET /fhir/${type}?<parameters> takes them in the URL.`;
}

/** The methods a Subscription path serves: the list, one subscription, its `$status` and `$events`; undefined for a path not served. */
function subscriptionAllow(second: string | undefined, more: readonly string[]): string | undefined {
  if (second === undefined) return SUBSCRIPTION_ALLOW;
  if (more.length === 0) return A_SUBSCRIPTION_ALLOW;
  return more.length === 1 && (more[0] === '$status' || more[0] === '$events') ? 'GET, HEAD' : undefined;
}
