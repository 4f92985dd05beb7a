/**
 * What the service takes from undici (a connection pool, an agent, the connector that opens their
 * TLS connections, the request API), loaded from undici's own modules rather than its index. The
 * index also loads fetch, WebSocket, EventSource, the caches and the mocks, and one of them reads
 * `globalThis.Headers`, which loads Node's own bundled copy of undici: 5.7 MiB of heap for the index
 * against 2.4 MiB for these parts, held for the life of every process and about twice that at the
 * collector's peak (BENCHMARKS.md, issue 20 item 6, ninth round). undici names no entry for the parts
 * alone; test/adapters/http-client/undici-parts.test.ts holds each to be the very object the index
 * exports, so an undici that moves them fails the suite, never a deployment.
 */
import { createRequire } from 'node:module';
import type * as undici from 'undici';

const load = createRequire(import.meta.url);

// What undici's index does once: the request API on every dispatcher (pool.request, agent.request).
Object.assign((load('undici/lib/dispatcher/dispatcher') as typeof undici.Dispatcher).prototype, load('undici/lib/api/index.js'));

export const Pool = load('undici/lib/dispatcher/pool') as typeof undici.Pool;
export const Agent = load('undici/lib/dispatcher/agent') as typeof undici.Agent;
export const buildConnector = load('undici/lib/core/connect') as typeof undici.buildConnector;
const { getGlobalDispatcher } = load('undici/lib/global') as Pick<typeof undici, 'getGlobalDispatcher'>;

export type Pool = undici.Pool;
export type Agent = undici.Agent;
export type Dispatcher = undici.Dispatcher;
export type ConnectorOptions = undici.buildConnector.BuildOptions;
export type Connector = undici.buildConnector.connector;
export type RequestOptions = Omit<undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher?: undici.Dispatcher };

/** undici's `request(url, options)`: one request to `url`, through `options.dispatcher` or the global one. */
export function request(url: string, options: RequestOptions): Promise<undici.Dispatcher.ResponseData> {
  const { dispatcher = getGlobalDispatcher(), ...rest } = options;
  const target = new URL(url);
  return dispatcher.request({ ...rest, origin: target.origin, path: `${target.pathname}${target.search}` });
}
