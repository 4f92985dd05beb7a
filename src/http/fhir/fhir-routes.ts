/**
 * The FHIR R4 API's routes (docs/fhir-api.md), registered under each prefix (`/fhir` and the vendor's
 * `/api/open/fhir`): discovery open to anyone, then per type served a search (GET, and POST
 * `_search` with a form body), a read by id, the patient summary (`Patient/<id>/$summary`), HEAD like
 * GET, and 405 for any other method. Every data route names the operation it is audited under and
 * answers errors as an OperationOutcome.
 */
import type { LargeAnswers } from '../serialization/large-answers.js';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import type { FhirType } from '../../domain/fhir/search-parameters.js';
import { FHIR_OPERATIONS, fhirOperationPath } from '../../domain/operations/fhir-operations.js';
import type { OperationName } from '../../domain/operations/table.js';
import { ApiError, MESSAGES } from '../api-error.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { SUBSCRIPTION_KEY_PARAMETER } from '../subscription-key.js';
import { auditEventRead, auditEventSearch } from './audit-events.js';
import { capabilityResources, capabilityStatement } from './capability-statement.js';
import { servedTypes, type FhirApi, type TypeServing } from './fhir-api.js';
import { answerType } from './fhir-format.js';
import { FhirInteractions } from './fhir-interactions.js';
import { parseSearch, readPatientParam } from './search-query.js';
import { formatParam } from './search-values.js';
import { PatientSummary } from './patient-summary.js';
import { smartConfiguration } from './smart-configuration.js';
import { WrittenForms } from './written-forms.js';
import { prefersStrictHandling } from './prefer-handling.js';

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
const MAX_FORM_BYTES = 16 * 1024;
const NOT_SERVED_METHODS = ['PUT', 'PATCH', 'DELETE', 'POST', 'TRACE'];

/**
 * The parameters of a request in the order given: the query string, then a `_search` form body. The
 * subscription key is the credentials' (src/http/subscription-key.ts), no parameter of a FHIR request.
 */
function paramsOf(request: FastifyRequest): [string, string][] {
  const query = request.url.indexOf('?');
  const fromUrl = query < 0 ? [] : [...new URLSearchParams(request.url.slice(query + 1))].filter(([name]) => name !== SUBSCRIPTION_KEY_PARAMETER);
  const body = typeof request.body === 'string' ? [...new URLSearchParams(request.body)] : [];
  return [...fromUrl, ...body];
}

/** The answer as JSON; a large one only while there is room for it (SEND_MAX_LARGE_ANSWERS, src/http/serialization/large-answers.ts). */
function send(request: FastifyRequest, reply: FastifyReply, body: unknown, format: string | undefined, room: LargeAnswers | undefined): FastifyReply {
  const untyped: FastifyReply = reply;
  const type = answerType(request, format);
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
  const capabilities = capabilityResources(served);
  const open = { open: true, errorShape: 'fhir' } as const;
  const isPatientId = (id: string): boolean => api.ids.identityNumberOf(id) !== undefined;
  const scopes = ['patient/*.read', 'user/*.read', 'system/*.read', ...served.flatMap((s) => [`patient/${s.type}.rs`, `user/${s.type}.rs`, `system/${s.type}.rs`])];
  // Described by its CapabilityStatement, not by the COS API's OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) => done(null, body));

  // Discovery is public, for any web app's origin (SMART App Launch 2, §2.1).
  app.get('/metadata', { config: open }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    // The base is read now: without PUBLIC_BASE_URL it is the address bound, known once listening.
    return send(request, reply, capabilityStatement(capabilities, api.publicBaseUrl, api.smart, new Date(now())), formatParam(paramsOf(request)), deps.largeAnswers);
  });
  // SMART App Launch serves its configuration as plain JSON (a .well-known document, not a FHIR resource).
  app.get('/.well-known/smart-configuration', { config: open }, async (_request, reply) => {
    const untyped: FastifyReply = reply;
    return untyped.header('access-control-allow-origin', '*').type('application/json; charset=utf-8').send(JSON.stringify(smartConfiguration(api.smart, scopes)));
  });
  const notAllowed = (allow: string) => async () => {
    throw new ApiError(405, `This API is read-only: ${allow} only.`, { allow });
  };
  // Every known path asked with a method it does not serve is 405 with Allow, with or without
  // credentials, as on the COS API (src/http/method-not-allowed.ts), refused in onRequest so that
  // nothing is read to say so: a FHIR update's body (application/fhir+json) is not a 415.
  const notServed = (url: string, methods = NOT_SERVED_METHODS, allow = 'GET, HEAD') => app.route({ method: methods, url, config: open, onRequest: notAllowed(allow), handler: notAllowed(allow) });
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
    const config = { operation: operationOfType(serving), errorShape: 'fhir', fhir: true } as const;
    const search = async (request: FastifyRequest, reply: FastifyReply) => {
      // A token is taken from the Authorization header only (docs/contract.md#token-kinds): one in a `_search`
      // form body is refused as one in the query string is (src/http/plugins/credentials.ts), never ignored.
      if (typeof request.body === 'string' && new URLSearchParams(request.body).has('access_token')) throw new ApiError(400, MESSAGES.tokenInQuery);
      const params = paramsOf(request);
      const strict = prefersStrictHandling(request.headers.prefer);
      const format = formatParam(params);
      answerType(request, format);
      const parsed = parseSearch(type, params, { zone: deps.zone, strict, isPatientId });
      const bundle = type === 'AuditEvent' ? await auditEventSearch(request, reply, deps, api, parsed) : await interactions.search(request, reply, parsed);
      return send(request, reply, bundle, format, deps.largeAnswers);
    };
    app.get(`/${type}`, { config }, search);
    app.post(`/${type}/_search`, { config, preParsing: formOnly }, search);
    app.get(`/${type}/:id`, { config }, async (request, reply) => {
      const { id } = request.params as { id: string };
      const params = paramsOf(request);
      const format = formatParam(params);
      answerType(request, format);
      if (!FHIR_ID.test(id)) throw new ApiError(400, `A ${type} id is 1 to 64 letters, digits, '-' or '.': take it from a search's entries.`);
      const patient = readPatientParam(params, isPatientId);
      if (type === 'AuditEvent') {
        const named = parseSearch(type, patient === undefined ? [] : [['patient', patient]], { zone: deps.zone, strict: false, isPatientId });
        return send(request, reply, await auditEventRead(request, reply, deps, api, named, id), format, deps.largeAnswers);
      }
      return send(request, reply, await interactions.read(request, reply, type, id, patient), format, deps.largeAnswers);
    });
    notServed(`/${type}/:id`);
    notServed(`/${type}`);
    // `_search` takes POST alone: any other method is 405 naming it, not a read of an id `_search`.
    notServed(`/${type}/_search`, [...NOT_SERVED_METHODS.filter((m) => m !== 'POST'), 'GET'], 'POST');
  }

  const summaryPath = fhirOperationPath(FHIR_OPERATIONS.getPatientSummary);
  app.get(summaryPath, { config: { operation: 'getPatientSummary', errorShape: 'fhir', fhir: true } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const format = formatParam(paramsOf(request));
    answerType(request, format);
    if (!FHIR_ID.test(id)) throw new ApiError(400, 'A Patient id is 1 to 64 letters, digits, \'-\' or \'.\': take it from a Patient search.');
    return send(request, reply, await summary.document(request, reply, id, new Date(now())), format, deps.largeAnswers);
  });
  notServed(summaryPath);
};

/**
 * For a request the router has no route for (a method Fastify does not route, such as PROPFIND, or
 * OPTIONS where no CORS origin is set): the 405 with `Allow` of a FHIR path, as
 * src/http/method-not-allowed.ts gives the COS API's paths, or undefined for a path the API does not
 * serve (404). docs/fhir-api.md#interactions: HEAD like GET, other methods 405.
 */
export function fhirMethodNotAllowed(basePath: string, api: FhirApi): (url: string) => ApiError | undefined {
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
    else if (types.has(type) && more.length === 0) allow = second === '_search' ? 'POST' : 'GET, HEAD';
    else if (more.length === 1 && operations.has(`${type}/${more[0] ?? ''}`)) allow = 'GET, HEAD';
    return allow === undefined ? undefined : new ApiError(405, `This API is read-only: ${allow} only.`, { allow });
  };
}
