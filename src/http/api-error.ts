import type { ErrorShape } from './types.js';

/**
 * An error that is already an HTTP answer: status, a message safe to show, extra headers, and the
 * error shape where no route says it (a documented path asked with another method).
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly errorShape?: ErrorShape,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const MESSAGES = {
  badSubscriptionKey: 'Access denied due to missing or invalid subscription key.',
  invalidToken: 'Invalid access token.',
  insufficientScope: 'Insufficient scope.',
  tokenInQuery: 'Access tokens are accepted only in the Authorization header.',
} as const;
