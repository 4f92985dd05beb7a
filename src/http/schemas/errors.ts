import { Type } from 'typebox';
import { groupsAnswering } from '../operation-groups.js';
import type { ErrorShape } from '../types.js';

export const StatusErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
}, { title: 'StatusError', description: 'Error body, shape 1 of the spec.' });

export const ErrorResponseSchema = Type.Object({
  error: Type.String({ maxLength: 1024 }),
  path: Type.String({ maxLength: 128 }),
  status: Type.Integer({ minimum: 200, maximum: 999 }),
  timestamp: Type.Integer({ minimum: -9999999999999, maximum: 9999999999999 }),
}, { title: 'ErrorResponse', description: `Error body, shape 2 of the spec (${groupsAnswering('error')}).` });

const statusCodes = [400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503, 504] as const;
/** A read of patient records the region does not serve (READS_OFF, or an EHR lacking its searches): only reads answer it. */
const READ_NOT_SERVED = 501;

/** Response schemas for every error status an API route can answer, in the route's shape (`read`: a read of patient records). */
export function errorResponses(shape: ErrorShape, read = false): Record<number, typeof StatusErrorSchema | typeof ErrorResponseSchema> {
  const schema = shape === 'status' ? StatusErrorSchema : ErrorResponseSchema;
  return Object.fromEntries([...statusCodes, ...(read ? [READ_NOT_SERVED] : [])].map((code) => [code, schema]));
}
