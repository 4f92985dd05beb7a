import type { FastifyRequest } from 'fastify';
import type { ErrorShape } from './types.js';

/** The error body in the shape the route documents (docs/contract.md#errors): shape 2 for the operations whose entry says so, else shape 1. */
export function errorBody(request: FastifyRequest, status: number, message: string, now: number, errorShape?: ErrorShape): object {
  const shape: ErrorShape = errorShape ?? request.routeOptions.config?.errorShape ?? 'status';
  if (shape === 'status') return { statusCode: status, message };
  const path = (request.url.split('?')[0] ?? '').slice(0, 128);
  return { error: message.slice(0, 1024), path, status, timestamp: now };
}
