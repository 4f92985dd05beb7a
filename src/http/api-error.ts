/** An error that is already an HTTP answer: status, a message safe to show, and extra headers. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
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
