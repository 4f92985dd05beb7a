/**
 * A hostile front proxy on loopback between the service and the EHR simulator. By default it
 * passes every request through unchanged (streaming, both ways, so the simulator's own faults —
 * trickle, reset mid-body, 50 MB bodies — reach the service as the simulator acts them out). A
 * test can script an answer for a path: any status, headers and bytes, or a socket cut off mid-way,
 * which covers what the simulator's fault control cannot say (a Content-Encoding, a chunked body
 * reset half-way). Requests to `/canary/*` are counted: an XML external entity naming it must
 * never be fetched.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ScriptedAnswer = (req: IncomingMessage, res: ServerResponse) => void;

interface Rule {
  path: string | RegExp;
  left: number;
  answer: ScriptedAnswer;
}

export class HostileFront {
  /** Requests to `/canary/...`, which only an expanded external entity would make. */
  canaryHits = 0;
  /** Requests passed through to the simulator, and answered by a script. */
  passedThrough = 0;
  scripted = 0;
  url = '';
  private rules: Rule[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor(private readonly target: URL) {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(targetUrl: string): Promise<HostileFront> {
    const front = new HostileFront(new URL(targetUrl));
    await new Promise<void>((resolve) => front.server.listen(0, '127.0.0.1', resolve));
    front.url = `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`;
    return front;
  }

  /** Answers requests whose path (query excluded) matches with `answer`, `times` times (until `clear()` by default). */
  script(path: string | RegExp, answer: ScriptedAnswer, times = Infinity): void {
    this.rules.push({ path, left: times, answer });
  }

  clear(): void {
    this.rules = [];
  }

  async close(): Promise<void> {
    this.rules = [];
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/canary/')) {
      this.canaryHits += 1;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('canary');
      return;
    }
    const rule = this.rules.find((r) => r.left > 0 && (typeof r.path === 'string' ? path.includes(r.path) : r.path.test(path)));
    if (rule !== undefined) {
      rule.left -= 1;
      this.scripted += 1;
      // The request body (a payment) is not needed by any script; drain it so the socket stays usable.
      req.resume();
      rule.answer(req, res);
      return;
    }
    this.passedThrough += 1;
    this.passThrough(req, res);
  }

  private passThrough(req: IncomingMessage, res: ServerResponse): void {
    const upstream = httpRequest({
      host: this.target.hostname, port: Number(this.target.port), method: req.method, path: req.url,
      headers: { ...req.headers, host: this.target.host, connection: 'close' }, agent: false,
    }, (answer) => {
      const headers = { ...answer.headers };
      delete headers.connection;
      delete headers['keep-alive'];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
      // The simulator cut the connection mid-body: cut ours too, so the service sees what it would see.
      answer.on('aborted', () => res.destroy());
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => res.destroy());
    // The service went away (its deadline passed, or it stopped reading at its cap): stop the simulator too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }
}

/** A complete answer of `status` with `body` and the given headers (Content-Length set unless `chunked`). */
export function fixedAnswer(status: number, headers: Record<string, string>, body: string | Buffer, chunked = false): ScriptedAnswer {
  return (_req, res) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    res.writeHead(status, { ...headers, ...(chunked ? {} : { 'content-length': String(bytes.length) }) });
    res.end(bytes);
  };
}

/** Headers and the first half of `body` chunked (no Content-Length), then the socket destroyed. */
export function chunkedThenReset(body: string): ScriptedAnswer {
  return (req, res) => {
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => req.socket.destroy());
  };
}

/**
 * Slowloris from the upstream side: the status line, headers and body of a whole answer written
 * `bytesPerInterval` bytes at a time straight to the socket, until done or the reader leaves.
 */
export function trickleRaw(status: number, contentType: string, body: string, intervalMs: number, bytesPerInterval: number): ScriptedAnswer {
  return (req) => {
    const bytes = Buffer.from(body, 'utf8');
    const raw = Buffer.concat([
      Buffer.from(`HTTP/1.1 ${status} OK\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\n\r\n`, 'latin1'), bytes,
    ]);
    const socket = req.socket;
    let sent = 0;
    const timer = setInterval(() => {
      if (socket.destroyed || sent >= raw.length) {
        clearInterval(timer);
        return;
      }
      socket.write(raw.subarray(sent, sent + bytesPerInterval));
      sent += bytesPerInterval;
    }, intervalMs);
    socket.once('close', () => clearInterval(timer));
  };
}
