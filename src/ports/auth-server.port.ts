import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The service's own authorization server (docs/sign-in.md), served under `{PUBLIC_BASE_URL}/auth` on the
 * API's port: the HTTP layer hands it every request under `mountPath` as it came (raw Node objects,
 * body unread), and it answers them itself.
 */
export interface AuthServerMount {
  /** The path it is served under, with the base path: `/auth` or `/patient-api/auth`. */
  readonly mountPath: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Answers a sign-in page refused by the per-source limit: 429, `Retry-After`, the server's own page in the person's language. */
  tooMany(req: IncomingMessage, res: ServerResponse, retryAfterSeconds: number): void;
}
