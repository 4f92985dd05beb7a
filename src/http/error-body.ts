import type { FastifyRequest } from 'fastify';
import { isFhirPath, operationOutcome } from './fhir/operation-outcome.js';
import type { AnswerShape } from './types.js';

/** The shape an error of this request is answered in: the route's, else FHIR's below /fhir, else shape 1. */
export function answerShapeOf(request: FastifyRequest, basePath: string, errorShape?: AnswerShape): AnswerShape {
  const configured = request.routeOptions.config?.errorShape;
  if (configured === 'fhir') return 'fhir';
  if (errorShape !== undefined) return errorShape;
  if (configured !== undefined) return configured;
  const path = request.url.startsWith(basePath) ? request.url.slice(basePath.length) : request.url;
  return isFhirPath(path) ? 'fhir' : 'status';
}

/**
 * The error body in the shape the route documents (docs/contract.md#errors): shape 2 for the
 * operations whose entry says so, FHIR's OperationOutcome on /fhir, else shape 1.
 */
export function errorBody(request: FastifyRequest, status: number, message: string, now: number, shape: AnswerShape = answerShapeOf(request, '')): object {
  if (shape === 'fhir') return operationOutcome(status, message);
  if (shape === 'status') return { statusCode: status, message };
  const path = (request.url.split('?')[0] ?? '').slice(0, 128);
  return { error: message.slice(0, 1024), path, status, timestamp: now };
}
