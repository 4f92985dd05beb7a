import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';

/** The service as `npm start` composes it (demo issuer, embedded EHR, demo key), listening on loopback. */
export interface DemoService {
  runtime: Runtime;
  /** `http://127.0.0.1:<port>` of the API. */
  api: string;
  /** The demo subscription key the service generated in DATA_DIR. */
  key: string;
  /** A client-credentials token of the demo issuer's `demo-integration` client, fetched over HTTP. */
  clientToken(scope: string): Promise<string>;
}

/** Starts it with `env` (DATA_DIR among it) on free ports; the caller closes `runtime`. */
export async function startDemoService(env: Record<string, string>, logger: Logger = createLogger('silent')): Promise<DemoService> {
  const dataDir = env.DATA_DIR;
  if (dataDir === undefined) throw new Error('startDemoService needs DATA_DIR');
  const runtime = await compose(loadConfig({ PORT: '0', DEMO_AUTH_PORT: '0', ...env }), logger);
  const api = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  const key = (await readFile(path.join(dataDir, 'demo-subscription-key'), 'utf8')).trim();
  const issuer = /demo authorization server: (\S+)/.exec(runtime.notices.join('\n'))?.[1] ?? '';
  const clientToken = async (scope: string): Promise<string> => {
    const secrets = JSON.parse(await readFile(path.join(dataDir, 'demo-auth.json'), 'utf8')) as { clientSecrets: Record<string, string> };
    const res = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`demo-integration:${secrets.clientSecrets['demo-integration']}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope }),
    });
    if (res.status !== 200) throw new Error(`the demo issuer refused a client token: ${res.status}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };
  return { runtime, api, key, clientToken };
}
