/**
 * Issue 22 item 7: the /docs page works in three clicks in demo mode (`npm start` without settings):
 * the demo subscription key filled in, one sign-in flow (authorization code with PKCE) with every
 * scope of the operation table ticked, and a line saying what to do. In production mode (keys and
 * an issuer configured) the page fills in no key and says nothing of a demo. The service is composed
 * as `npm start` composes it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { apiScopes } from '../../src/domain/access/scopes.js';
import { createLogger } from '../../src/http/logging.js';
import { listen } from '../../src/start/listen.js';
import { startDemoService, type DemoService } from '../support/demo-service.js';
import { TestIssuer } from '../support/test-issuer.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

type Json = Record<string, unknown>;
const PORTS = { PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent' };
const PRODUCTION_KEY = 'production-key-0123456789abcdef';

async function page(base: string): Promise<{ initializer: string; document: Json }> {
  const initializer = await (await fetch(`${base}/docs/static/swagger-initializer.js`)).text();
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as Json;
  return { initializer, document };
}

describe('issue 22 item 7: the docs page in demo mode', () => {
  let dataDir: string;
  let service: DemoService;
  let base: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-docs-demo-'));
    service = await startDemoService({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    base = service.api;
  });
  afterAll(async () => {
    await service?.runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('fills in the demo key from DATA_DIR/demo-subscription-key', async () => {
    const { key } = service;
    const { initializer } = await page(base);
    expect(initializer).toContain(`ui.preauthorizeApiKey('subscriptionKey', ${JSON.stringify(key)})`);
  });

  it('offers one sign-in flow, authorization code with PKCE, with every scope of the table described and ticked', async () => {
    const { initializer, document } = await page(base);
    const oauth2 = ((document.components as Json).securitySchemes as Json).oauth2 as { flows: Record<string, { scopes: Record<string, string> }> };
    expect(Object.keys(oauth2.flows)).toEqual(['authorizationCode']);
    const offered = oauth2.flows.authorizationCode?.scopes ?? {};
    for (const [scope, description] of apiScopes()) {
      expect([scope, offered[scope]]).toEqual([scope, description]);
      expect(description.length).toBeGreaterThan(10);
    }
    expect(offered['user/AccessLog-read']).toMatch(/access log/);
    const init = /ui\.initOAuth\((\{.*\})\)/.exec(initializer)?.[1] ?? '{}';
    const initOAuth = JSON.parse(init) as { clientId: string; usePkceWithAuthorizationCodeGrant: boolean; scopes: string[] };
    expect(initOAuth).toEqual({ clientId: 'api-docs', usePkceWithAuthorizationCodeGrant: true, scopes: ['openid', ...apiScopes().keys()] });
  });

  it('says on the page what to do', async () => {
    const { document } = await page(base);
    const description = String((document.info as Json).description);
    expect(description).toContain('**Demo mode: three clicks.**');
    expect(description).toMatch(/Authorize.*filled in.*every scope.*Try it out.*Execute.*15 minutes/s);
  });
});

describe('issue 22 item 7: the docs page in production mode', () => {
  let dataDir: string;
  let issuer: TestIssuer;
  let runtime: Runtime;
  let base: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-docs-production-'));
    issuer = await TestIssuer.start();
    const config = loadConfig({ DATA_DIR: dataDir, ...PORTS, AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `app:${PRODUCTION_KEY}`, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' });
    runtime = await compose(config, createLogger('silent'));
    base = (await listen(runtime, config)).api;
  });
  afterAll(async () => {
    await runtime?.close();
    await issuer?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('fills in no key, makes no demo key, and says nothing of a demo', async () => {
    const { initializer, document } = await page(base);
    expect(initializer).not.toContain('preauthorizeApiKey');
    expect(initializer).not.toContain(PRODUCTION_KEY);
    expect(initializer).not.toContain('"clientId":"api-docs"');
    await expect(readFile(path.join(dataDir, 'demo-subscription-key'), 'utf8')).rejects.toThrow();
    expect(String((document.info as Json).description)).not.toContain('Demo mode');
  });
});
