import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { createLogger } from '../../src/http/logging.js';
import { listen, type Listening } from '../../src/start/listen.js';

/** The service as `npm start` listens: the API on PORT, /metrics apart on METRICS_PORT (both port 0 here, read back). */
describe('issue 12 item 10: /metrics on its own port', () => {
  let dataDir: string;
  let runtime: Runtime;
  let bound: Listening;
  let closed = false;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-metrics-port-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent' });
    expect([config.metricsHost, loadConfig({}).metricsPort]).toEqual(['127.0.0.1', 9464]);
    runtime = await compose(config, createLogger('silent'));
    bound = await listen(runtime, config);
  });

  afterAll(async () => {
    if (!closed) await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('issue 12 item 10: serves /metrics on METRICS_HOST:METRICS_PORT (loopback), and not on the API port', async () => {
    const api = new URL(bound.api);
    const metrics = new URL(bound.metrics);
    expect(metrics.hostname).toBe('127.0.0.1');
    expect(Number(metrics.port)).toBeGreaterThan(0);
    expect(metrics.port).not.toBe(api.port);
    const scraped = await fetch(`${bound.metrics}/metrics`);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).toContain('pdas_http_requests_total');
    expect((await fetch(`${bound.api}/metrics`)).status).toBe(404);
    expect((await fetch(`${bound.api}/health/live`)).status).toBe(200);
  });

  it('issue 12 item 10: closes the metrics listener with the service', async () => {
    closed = true;
    await runtime.close();
    await expect(fetch(`${bound.metrics}/metrics`)).rejects.toThrow();
  });
});
