import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The service's own authorization server (docs/sign-in.md), served under `{PUBLIC_BASE_URL}/auth` on the
 * API's port: the HTTP layer hands it every request under `mountPath` as it came (raw Node objects,
 * body unread), and it answers them itself.
 */
export interface AuthServerMount {
  /** The path it is served under, with the base path: `/auth` or `/patient-api/auth`. */
  readonly mountPath: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /**
   * Answers a request refused by the per-source limit: 429 and `Retry-After`; at a sign-in page the
   * server's own page in the person's language, at the back channel (`backChannel`) its OAuth error in JSON.
   */
  tooMany(req: IncomingMessage, res: ServerResponse, retryAfterSeconds: number, backChannel: boolean): void;
  /**
   * The server's own page (its headers and body) for a request under `mountPath` the HTTP layer refused
   * before handing it over: 400 an address that cannot be decoded, 431 a request too large for Node's
   * parser (`request` then as far as the parser's packet held it), in the language it asks for.
   */
  refusedPage(request: { url: string; headers: IncomingHttpHeaders }, status: 400 | 431): { headers: Record<string, string>; body: string };
}
