/**
 * Loopback receivers of notifications for tests (issue 54): HTTP servers of the test's own that record
 * what reaches them (connections, requests, bodies) and answer as each test arranges, including never.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Header names as sent, in order, with repeats (rawHeaders). */
  rawHeaders: string[];
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Connections accepted, and those open now. */
  connections: number;
  open: Set<Socket>;
  /** Requests waiting for an answer now, and the most at once. */
  waiting: number;
  mostWaiting: number;
  /** Answers held by `hold`, to end when the test is done. */
  held: ServerResponse[];
  server: Server;
  close(): Promise<void>;
}

export type Answer = (req: IncomingMessage, res: ServerResponse, receiver: Receiver) => void;

export async function receiver(answer: Answer, host = '127.0.0.1'): Promise<Receiver> {
  const server = createServer();
  const state: Receiver = {
    url: '', port: 0, received: [], connections: 0, open: new Set(), waiting: 0, mostWaiting: 0, held: [], server,
    close: async () => {
      for (const res of state.held) res.destroy();
      for (const socket of state.open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on('connection', (socket: Socket) => {
    state.connections += 1;
    state.open.add(socket);
    socket.on('close', () => state.open.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      state.received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks).toString('utf8') });
      state.waiting += 1;
      state.mostWaiting = Math.max(state.mostWaiting, state.waiting);
      res.on('close', () => { state.waiting -= 1; });
      answer(req, res, state);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://${host.includes(':') ? `[${host}]` : host}:${state.port}`;
  return state;
}

export const status = (code: number, headers: Record<string, string> = {}): Answer => (_req, res) => {
  res.writeHead(code, headers).end();
};

/** Never answers: the request waits until the test ends. */
export const hold: Answer = (_req, res, state) => {
  state.held.push(res);
};
