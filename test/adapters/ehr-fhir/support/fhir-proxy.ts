/**
 * An HTTP proxy in front of the development FHIR server, on loopback, that lets a test change what
 * the server answers (a fault of docs/upstream-fhir.md#7-faults) or not answer at all. `base` is the
 * server's base URL; the proxy's own is `url` with the same path, and the server's origin in an
 * answer (next links, fullUrls) is rewritten to the proxy's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** Send the body in pieces of `bytes` every `everyMs`, chunked (no Content-Length), until it ends or the caller hangs up. */
  drip?: { bytes: number; everyMs: number };
}

export interface Seen {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the proxy does with a request: the server's reply changed, another reply, or `hang` / `reset`. */
export type Hook = (seen: Seen, forward: () => Promise<Reply>) => Promise<Reply | 'hang' | 'reset'>;

export interface FhirProxy {
  /** The proxy's base URL (the server's path, the proxy's origin). */
  url: string;
  seen: Seen[];
  hook: Hook | undefined;
  close(): Promise<void>;
}

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

async function drip(res: ServerResponse, status: number, headers: Record<string, string>, body: Buffer, pace: { bytes: number; everyMs: number }): Promise<void> {
  res.writeHead(status, headers);
  for (let at = 0; at < body.length && !res.destroyed; at += pace.bytes) {
    res.write(body.subarray(at, at + pace.bytes));
    await new Promise((resolve) => setTimeout(resolve, pace.everyMs));
  }
  if (!res.destroyed) res.end();
}

export async function startFhirProxy(base: string): Promise<FhirProxy> {
  const target = new URL(base);
  const sockets = new Set<Socket>();
  const proxy: FhirProxy = { url: '', seen: [], hook: undefined, close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readAll(req);
      const seen: Seen = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: body.toString() };
      proxy.seen.push(seen);
      const forward = async (): Promise<Reply> => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
        const answer = await fetch(new URL(seen.url, target.origin), {
          method: seen.method, headers, redirect: 'manual', ...(body.length > 0 ? { body } : {}),
        });
        // The server names itself in next links and fullUrls; through the proxy they name the proxy.
        const text = Buffer.from(await answer.arrayBuffer()).toString().replaceAll(target.origin, new URL(proxy.url).origin);
        return { status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(text) };
      };
      const reply = proxy.hook === undefined ? await forward() : await proxy.hook(seen, forward);
      if (reply === 'hang') return;
      if (reply === 'reset') {
        req.socket.destroy();
        return;
      }
      const headers = Object.fromEntries(Object.entries(reply.headers).filter(([k]) => !['content-length', 'transfer-encoding', 'content-encoding', 'connection', 'keep-alive'].includes(k)));
      if (reply.drip !== undefined) {
        await drip(res, reply.status, headers, reply.body, reply.drip);
        return;
      }
      res.writeHead(reply.status, { ...headers, 'content-length': String(reply.body.length) });
      res.end(reply.body);
    })().catch(() => req.socket.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}${target.pathname.replace(/\/+$/, '')}`;
  proxy.close = () => new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return proxy;
}

/** A hook that changes the answers to requests whose path and query contain `where`, and passes the rest. */
export const on = (where: string, change: (reply: Reply) => Reply | 'hang' | 'reset'): Hook => async (seen, forward) => {
  const reply = await forward();
  return seen.url.includes(where) ? change(reply) : reply;
};

/** A reply with `json` as its FHIR JSON body. */
export const fhirReply = (status: number, json: unknown, headers: Record<string, string> = {}): Reply =>
  ({ status, headers: { 'content-type': 'application/fhir+json', ...headers }, body: Buffer.from(JSON.stringify(json)) });
