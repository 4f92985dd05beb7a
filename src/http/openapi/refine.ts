/**
 * Turns what @fastify/swagger generates from the routes' own schemas into a document a client
 * developer can generate a client from: both credentials as security requirements with the
 * operation's scope, documented answers with their headers and an example from the demo data,
 * named schemas, and the paths as written without a trailing slash (both forms answer).
 */
import { OPERATIONS, type OperationName } from '../../domain/access/operations.js';
import { RELEASE_FILTERED_OPERATIONS } from '../../domain/release/release.js';
import { ErrorResponseSchema, StatusErrorSchema } from '../schemas/errors.js';
import { exampleOf } from './examples.js';
import { hoistNamedSchemas } from './named-schemas.js';
import { errorResponseName, errorResponses, FILTERED_HEADERS, HEADERS, headersFor } from './responses.js';
import { securityOf } from './security.js';

type Json = Record<string, unknown>;
type Operation = Json & { operationId?: string; parameters?: Json[]; responses?: Record<string, Json> };

const VENDOR_SUFFIX = 'AtVendorPath';
const CREDENTIAL_HEADERS = new Set(['ocp-apim-subscription-key', 'authorization']);

const SUCCESS: Partial<Record<OperationName, string>> = {
  registerPayment: 'The outcome, in an array of one ResultRecord: OK, INFO (already paid) or ERROR with a comment.',
  changeAppointment: 'The outcome: OK, INFO (already arrived) or ERROR with a comment.',
  getAppointments: 'The booked appointments, oldest first.',
  getPatient: 'The patient: an array of PatientRecord, or with api-version=v2 the v2 layout.',
  getPatientV2: 'The patient in the v2 layout.',
  getContacts: 'The care contacts, oldest first.',
  getAttentionSignals: 'The attention signals, oldest first.',
  getVideoMeetings: 'The video meetings, earliest first; at most 64.',
  getMedications: 'The prescriptions, oldest first.',
  getJournalNotes: 'The journal notes, oldest first.',
};

function operationNameOf(operationId: string | undefined): OperationName {
  const name = (operationId ?? '').replace(VENDOR_SUFFIX, '');
  if (!Object.hasOwn(OPERATIONS, name)) throw new Error(`OpenAPI: operation ${operationId ?? '(no id)'} is not one of the spec's`);
  return name as OperationName;
}

function successResponse(operation: OperationName, generated: Json, summary: unknown): Json {
  const content = generated.content as Record<string, Json> | undefined;
  const schema = content?.['application/json']?.schema;
  const media: Json = { schema };
  if (operation === 'getPatient') {
    media.examples = {
      older: { summary: 'Without api-version: the older layout', value: exampleOf('getPatient') },
      v2: { summary: 'With api-version=v2', value: exampleOf('getPatientV2') },
    };
  } else if (exampleOf(operation) !== undefined) {
    media.example = exampleOf(operation);
  }
  // An operation documented elsewhere (a route of its own) keeps its own description.
  const own = generated.description === 'Default Response' ? undefined : generated.description;
  // A route's own answer headers (the access log's Link) and further media types (its FHIR form) are kept beside the common ones.
  const others = Object.fromEntries(Object.entries(content ?? {}).filter(([type]) => type !== 'application/json'));
  const headers = { ...headersFor(200), ...(RELEASE_FILTERED_OPERATIONS.includes(operation) ? FILTERED_HEADERS : {}), ...(generated.headers as Json | undefined) };
  return { description: SUCCESS[operation] ?? own ?? (typeof summary === 'string' ? summary : 'The answer.'), headers, content: { 'application/json': media, ...others } };
}

function refineOperation(op: Operation): Operation {
  const name = operationNameOf(op.operationId);
  const shape = (op.responses?.['400']?.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema?.title === 'ErrorResponse'
    ? 'error' : 'status';
  const responses: Record<string, Json> = {};
  for (const [code, response] of Object.entries(op.responses ?? {})) {
    // An unknown path or method is 404 before any operation is chosen: not an answer of this one.
    if (code === '404') continue;
    responses[code] = code === '200' ? successResponse(name, response, op.summary) : { $ref: `#/components/responses/${errorResponseName(Number(code), shape)}` };
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
