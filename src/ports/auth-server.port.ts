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
}
