import dns from 'node:dns';
import { ConfigError, type Config } from './config.js';
import type { Runtime } from './container.js';
import { opened } from './listen-failure.js';
import { isLoopbackHost } from './transport-settings.js';

export interface Listening {
  /** Where the API answers, e.g. `http://127.0.0.1:8080` (the bound port when PORT is 0). */
  api: string;
  /** Where `/metrics` answers, apart from the API. */
  metrics: string;
}

/**
 * The one address to bind for `host`. Told `localhost`, fastify binds every address the name resolves
 * to, each on a server of its own that none of the API's connection guards listen on (a GET's body,
 * the send deadline, the drain: src/http/app.ts); the first address is what the name means here. It
 * passed the plain-HTTP check as loopback by its name (transport-settings.ts), so it must be one.
 */
async function oneAddress(host: string, setting: string): Promise<string> {
  if (host !== 'localhost') return host;
  const { address } = await dns.promises.lookup(host);
  if (!isLoopbackHost(address)) {
    throw new ConfigError(`${setting} localhost names ${address}, not a loopback address: set ${setting}=127.0.0.1, or name this machine's loopback in its hosts file`);
  }
  return address;
}

/** What `npm start` opens: the API on HOST:PORT and the metrics listener on METRICS_HOST:METRICS_PORT. */
export async function listen(runtime: Runtime, config: Pick<Config, 'host' | 'port' | 'metricsHost' | 'metricsPort'>): Promise<Listening> {
  const metrics = await opened(async () => runtime.metricsApp.listen({ port: config.metricsPort, host: await oneAddress(config.metricsHost, 'METRICS_HOST') }),
    { portSetting: 'METRICS_PORT', port: config.metricsPort, hostSetting: 'METRICS_HOST', host: config.metricsHost });
  const api = await opened(async () => runtime.app.listen({ port: config.port, host: await oneAddress(config.host, 'HOST') }),
    { portSetting: 'PORT', port: config.port, hostSetting: 'HOST', host: config.host });
  runtime.listening(api);
  return { api, metrics };
}
