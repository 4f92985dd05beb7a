/**
 * Issue 38 part 2: the metrics the alert rules of deploy/prometheus/alerts.yaml need and the service
 * did not export: each dependency's latest readiness answer and how often it changed (readiness
 * flapping), the expiry of the certificates in use, and the Redis fail-open count registered without
 * Redis too (docs/operations.md#alerts).
 */
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstrumentedAuditTrail } from '../../../src/adapters/metrics/instrumented-audit-trail.js';
import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';
import { HttpsServing } from '../../../src/adapters/tls/https-serving.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';
import { TestPki } from '../../support/test-pki.js';
import { opensslMissing } from '../../support/requirements.js';

/** The value of the one sample of `name` whose labels are `labels` (`{dependency="audit"}`), or undefined. */
async function sample(metrics: PrometheusMetrics, name: string, labels = ''): Promise<number | undefined> {
  const line = (await metrics.render()).split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('issue 38 part 2: readiness as metrics', () => {
  it('keeps each check\'s latest answer and counts its changes between up and down', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    const answers = [true, false, false, true, true];
    for (const up of answers) await metrics.observeCheck('ehr', async () => up);
    expect(await sample(metrics, 'pdas_dependency_up', '{dependency="ehr"}')).toBe(1);
    expect(await sample(metrics, 'pdas_dependency_changes_total', '{dependency="ehr"}')).toBe(2);
  });

  it('starts the change count at 0 on the first check, so increase() sees the first flap', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    await metrics.observeCheck('redis', async () => false);
    expect(await sample(metrics, 'pdas_dependency_changes_total', '{dependency="redis"}')).toBe(0);
    expect(await sample(metrics, 'pdas_dependency_up', '{dependency="redis"}')).toBe(0);
  });

  it('records a check that rejects as down and passes the rejection on', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    await metrics.observeCheck('registry', async () => true);
    await expect(metrics.observeCheck('registry', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await sample(metrics, 'pdas_dependency_up', '{dependency="registry"}')).toBe(0);
    expect(await sample(metrics, 'pdas_dependency_changes_total', '{dependency="registry"}')).toBe(1);
  });

  it('records the audit store\'s readiness through the instrumented trail', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    const store = new MemoryAuditTrail();
    const trail = new InstrumentedAuditTrail(store, metrics);
    expect(await trail.ping()).toBe(true);
    store.mode = 'fail';
    expect(await trail.ping()).toBe(false);
    expect(await sample(metrics, 'pdas_dependency_up', '{dependency="audit"}')).toBe(0);
    expect(await sample(metrics, 'pdas_dependency_changes_total', '{dependency="audit"}')).toBe(1);
  });
});

describe.skipIf(opensslMissing())('issue 38 part 2: the expiry of the certificates in use', () => {
  let dir: string;
  let pki: TestPki;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-cert-metric-'));
    pki = new TestPki(dir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exports the API certificate\'s notAfter in Unix seconds, read from the one being served', async () => {
    const issued = pki.server('api');
    const https = await HttpsServing.open({ ...issued, clientCaFile: undefined }, pino({ level: 'silent' }));
    try {
      const metrics = new PrometheusMetrics({ defaultMetrics: false });
      expect(await sample(metrics, 'pdas_tls_certificate_expiry_timestamp_seconds', '{certificate="api"}')).toBeUndefined();
      metrics.observeCertificate('api', () => https.certificateExpiry());
      const notAfter = Math.floor(new X509Certificate(issued.cert).validToDate.getTime() / 1000);
      expect(await sample(metrics, 'pdas_tls_certificate_expiry_timestamp_seconds', '{certificate="api"}')).toBe(notAfter);
    } finally {
      https.close();
    }
  });

  it('reads the expiry at each scrape, so a rotated certificate shows without a restart', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    let expiry: Date | undefined = new Date('2030-01-01T00:00:00Z');
    metrics.observeCertificate('ehr-client', () => expiry);
    expect(await sample(metrics, 'pdas_tls_certificate_expiry_timestamp_seconds', '{certificate="ehr-client"}')).toBe(1893456000);
    expiry = new Date('2031-01-01T00:00:00Z');
    expect(await sample(metrics, 'pdas_tls_certificate_expiry_timestamp_seconds', '{certificate="ehr-client"}')).toBe(1924992000);
    expiry = undefined;
    expect(await sample(metrics, 'pdas_tls_certificate_expiry_timestamp_seconds', '{certificate="ehr-client"}')).toBeUndefined();
  });
});

describe('issue 38 part 2: every metric registered whatever the configuration', () => {
  it('exports pdas_rate_limit_unenforced_total as 0 without Redis, and the adapter\'s count with it', async () => {
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    expect(await sample(metrics, 'pdas_rate_limit_unenforced_total')).toBe(0);
    let skipped = 3;
    metrics.countUnenforcedFrom(() => skipped);
    expect(await sample(metrics, 'pdas_rate_limit_unenforced_total')).toBe(3);
    skipped = 5;
    expect(await sample(metrics, 'pdas_rate_limit_unenforced_total')).toBe(5);
  });
});
