// DEV-ONLY: what the demo issuer answers to a request Node's HTTP parser refuses before the issuer sees it.
import type { Socket } from 'node:net';
import { refusedPage } from '../../adapters/auth-server/error-pages.js';
import { endWith, refusalOf, requestIn } from '../../http/transport-errors.js';

/**
 * A header block over Node's limit (an authorization address of 20 KB) or a malformed request is
 * answered with the issuer's own page and the headers of its other refusals (docs/sign-in.md, "Every
 * page is the service's"), in the language the packet asks for when it begins with the request line,
 * not Node's bare status line. A request still arriving at its deadline has no page of its own: its
 * status line alone, as Node writes it.
 */
export function answerRefusedRequest(err: NodeJS.ErrnoException & { rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason } = refusalOf(err.code);
  if (status !== 431 && status !== 400) {
    endWith(socket, status, reason, {}, '');
    return;
  }
  const refused = requestIn(err.rawPacket);
  const page = refusedPage(refused ?? { url: '/', headers: {} }, status, '/');
  endWith(socket, status, reason, page.headers, page.body, refused?.method);
}
