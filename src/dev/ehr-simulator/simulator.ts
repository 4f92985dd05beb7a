/**
 * The EHR simulator: the upstream HTTP interface (docs/upstream-ehr.md#2-requests-and-answers) served from an embedded EHR data folder
 * on a real listening socket, so the remote adapter is tested against real HTTP and a region can try
 * the service without its EHR. Synthetic data only: it is not a system of record.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { DocumentStore } from '../../adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../adapters/ehr-embedded/write-state-store.js';
import { EhrInterface, type SimRequest } from './ehr-interface.js';
import { FaultRules, type FaultControl } from './fault-control.js';
import { misbehave, send } from './misbehave.js';
import { aboutSomeoneElse } from './swap.js';
import { DOCUMENTS, type DocumentKind } from '../../adapters/ehr-xml/documents.js';
import { fault } from './xml-answers.js';
import { requestTarget } from '../../adapters/auth-server/request-target.js';

export interface EhrSimulatorOptions {
  /** An embedded EHR data folder (docs/upstream-ehr.md#6-the-embedded-ehrs-folder). */
  dataDir: string;
  /** Where the outcomes of writes are kept (a JSON file). */
  stateFile: string;
  /** EHR_TIMEZONE: the zone of `from`/`to`. */
  zone: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** HTTPS instead of HTTP; with `clientCa`, only callers with a certificate it signed (mutual TLS, as regions run it). */
  tls?: EhrSimulatorTls;
  /** Sees every request as it arrives (a test reading the headers the service sent, `traceparent` among them). */
  onRequest?: (req: IncomingMessage) => void;
  /**
   * Whether documents carry an ETag and Last-Modified and conditional GETs are answered 304, as a real
   * EHR's may (true unless set); false is an EHR that sends no validators.
   */
  validators?: boolean;
}

export interface EhrSimulatorTls {
  cert: Buffer | string;
  key: Buffer | string;
  clientCa?: Buffer | string;
}

export interface EhrSimulator {
  readonly url: string;
  readonly faults: FaultControl;
  /** Requests received so far, misbehaved ones included. */
  readonly requests: number;
  close(): Promise<void>;
}

const MAX_REQUEST_BODY = 16 * 1024;

/** A request header as one value (repeated ones joined, as a list header's are), or undefined when absent. */
function oneHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function readRequestBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startEhrSimulator(options: EhrSimulatorOptions): Promise<EhrSimulator> {
  const store = new DocumentStore(options.dataDir);
  const ehr = new EmbeddedEhr(store, await WriteStateStore.open(options.stateFile), options.zone, () => undefined);
  const ehrInterface = new EhrInterface(store, ehr, options.zone, options.validators ?? true);
  const faults = new FaultRules();
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let requests = 0;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readRequestBody(req);
    const url = requestTarget(req.url);
    if (body === undefined) {
      res.setHeader('connection', 'close');
      send(res, fault(400, 'BAD_REQUEST', 'Request body too large'));
      return;
    }
    const contentType = req.headers['content-type'];
    const conditions = { ifNoneMatch: oneHeader(req, 'if-none-match'), ifModifiedSince: oneHeader(req, 'if-modified-since') };
    const request: SimRequest = { method: req.method ?? 'GET', url, contentType, body, conditions };
    const chosen = faults.take(request.method, url.pathname);
    if (chosen === undefined) {
      send(res, await ehrInterface.answer(request));
      return;
    }
    const kind = url.pathname.split('/')[5] ?? '';
    // Timers of this exchange die with its connection, so a trickle or a delay never outlives the caller.
    const pending = new Set<NodeJS.Timeout>();
    let gone = false;
    res.once('close', () => {
      gone = true;
      for (const timer of pending) {
        clearTimeout(timer);
        timers.delete(timer);
      }
    });
    await misbehave(chosen, {
      req, res,
      answer: () => ehrInterface.answer(request),
      // A fault acted out on a document acts on all of it, whatever the request's preconditions.
      document: () => ehrInterface.answer({ ...request, conditions: {} }),
      swapped: async () => ehrInterface.answer({ ...await aboutSomeoneElse(options.dataDir, request), conditions: {} }),
      root: Object.hasOwn(DOCUMENTS, kind) ? DOCUMENTS[kind as DocumentKind].reading.document.root : 'Relationships',
      after: (ms, run) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          pending.delete(timer);
          if (!gone) run();
        }, ms);
        timers.add(timer);
        pending.add(timer);
      },
    });
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    requests += 1;
    options.onRequest?.(req);
    handle(req, res).catch(() => res.destroy());
  };
  const tls = options.tls;
  const server = tls === undefined ? createServer(listener) : createHttpsServer({
    cert: tls.cert, key: tls.key, minVersion: 'TLSv1.2',
    ...(tls.clientCa === undefined ? {} : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }),
  }, listener);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `${tls === undefined ? 'http' : 'https'}://${host.includes(':') ? `[${host}]` : host}:${port}`,
    faults,
    get requests() {
      return requests;
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
