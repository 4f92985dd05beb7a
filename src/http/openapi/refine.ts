/**
 * Turns what @fastify/swagger generates from the routes' own schemas into a document a client
 * developer can generate a client from: both credentials as security requirements with the
 * operation's scope, documented answers with their headers and an example from the demo data,
 * named schemas, and the paths as written without a trailing slash (both forms answer).
 */
import { GUARDIAN_LIMITED_OPERATIONS, isOperationName, OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import { ErrorResponseSchema, StatusErrorSchema } from '../schemas/errors.js';
import { exampleOf } from './examples.js';
import { hoistNamedSchemas } from './named-schemas.js';
import { apiRoutes } from '../routes/api-routes.js';
import { errorResponseName, errorResponses, FILTERED_HEADERS, HEADERS, headersFor } from './responses.js';
import { securityOf } from './security.js';

type Json = Record<string, unknown>;
type Operation = Json & { operationId?: string; parameters?: Json[]; responses?: Record<string, Json> };

const VENDOR_SUFFIX = 'AtVendorPath';
const CREDENTIAL_HEADERS = new Set(['ocp-apim-subscription-key', 'authorization']);

function operationNameOf(operationId: string | undefined): OperationName {
  const name = (operationId ?? '').replace(VENDOR_SUFFIX, '');
  if (!isOperationName(name)) throw new Error(`OpenAPI: operation ${operationId ?? '(no id)'} is not in the operation table`);
  return name;
}

/** The operations a route serves, when `api-version` chooses between them: each with its example. */
function examplesOf(operation: OperationName): Json | undefined {
  const route = apiRoutes().find((r) => r.operations[0] === operation);
  if (route === undefined || route.operations.length < 2) return undefined;
  return Object.fromEntries(route.operations.map((name) => {
    const choice = OPERATIONS[name].apiVersion;
    const summary = choice?.value === undefined ? `Without api-version: ${choice?.whenAbsent ?? 'the default layout'}` : `With api-version=${choice.value}`;
    return [choice?.value ?? 'older', { summary, value: exampleOf(name) }];
  }));
}

function successResponse(operation: OperationName, generated: Json, status: number): Json {
  const content = generated.content as Record<string, Json> | undefined;
  const schema = content?.['application/json']?.schema;
  const media: Json = { schema };
  const examples = examplesOf(operation);
  if (examples !== undefined) media.examples = examples;
  else if (exampleOf(operation) !== undefined) media.example = exampleOf(operation);
  // A route's own answer headers (the access log's Link) and further media types (its FHIR form) are kept beside the common ones.
  const others = Object.fromEntries(Object.entries(content ?? {}).filter(([type]) => type !== 'application/json'));
  const filtered = GUARDIAN_LIMITED_OPERATIONS.includes(operation) ? FILTERED_HEADERS : {};
  const made = status === 201 ? { Location: { $ref: '#/components/headers/Location' } } : {};
  const headers = { ...headersFor(200), ...filtered, ...made, ...(generated.headers as Json | undefined) };
  return { description: OPERATIONS[operation].docs.success, headers, content: { 'application/json': media, ...others } };
}

function refineOperation(op: Operation): Operation {
  const name = operationNameOf(op.operationId);
  const shape = OPERATIONS[name].errorShape;
  const responses: Record<string, Json> = {};
  for (const [code, response] of Object.entries(op.responses ?? {})) {
    // An unknown path or method is 404 before any operation is chosen: not an answer of this one. Sharing's 404 (a grant not the
    // caller's) and 409 (a change that cannot be made) are its own; no other operation answers them.
    if ((code === '404' || code === '409') && OPERATIONS[name].handler !== 'proxy') continue;
    responses[code] = code === '200' || code === '201'
      ? successResponse(name, response, Number(code))
      : { $ref: `#/components/responses/${errorResponseName(Number(code), shape)}` };
  }
  const parameters = (op.parameters ?? [])
    .filter((p) => !(p.in === 'header' && CREDENTIAL_HEADERS.has(String(p.name).toLowerCase())))
    .map(({ example: _example, ...p }) => p);
  return { ...op, parameters, security: securityOf(name), responses };
}

/** The document as published: see the header comment. */
export function refineDocument(doc: Json): Json {
  const paths: Json = {};
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    const refined = Object.fromEntries(Object.entries(methods).map(([method, op]) => [method, refineOperation(op)]));
    paths[path.length > 1 ? path.replace(/\/$/, '') : path] = refined;
  }
  const components = (doc.components ?? {}) as Json;
  // The error answers refer to the two error bodies by name.
  const schemas = { ...(components.schemas ?? {}) as Json, StatusError: { ...StatusErrorSchema }, ErrorResponse: { ...ErrorResponseSchema } };
  const hoisted = hoistNamedSchemas(paths, schemas);
  return {
    ...doc,
    paths: hoisted.paths,
    components: { ...components, schemas: hoisted.schemas, responses: errorResponses(), headers: HEADERS },
  };
}
