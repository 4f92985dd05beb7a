/**
 * Issue 38 part 2: the Grafana dashboard (deploy/grafana/patient-data-access.json) and the alert rules
 * (deploy/prometheus/alerts.yaml) query only metrics the service exports. The service is started
 * as `npm start` composes it (demo mode, /metrics on its own port), asked a few requests, and
 * scraped; every metric name in a query must be declared there (a histogram's _bucket, _sum and
 * _count count as the histogram). A dashboard panel or an alert on a metric that does not exist
 * shows nothing and never fires, which no one notices until the night it should have.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { listen, type Listening } from '../../src/start/listen.js';
import { alertRules, dashboardQueries, declaredMetrics, isExported, metricNames } from './monitoring.js';

/** What kube-state-metrics (v2.3 or newer) says of a CronJob's runs: what PdasAuditChainUnverified reads. */
const KUBE_STATE_METRICS = ['kube_cronjob_status_last_schedule_time', 'kube_cronjob_status_last_successful_time', 'kube_cronjob_status_active'];

describe('issue 38 part 2: the dashboard and the alerts query what the service exports', () => {
  let dataDir: string;
  let runtime: Runtime;
  let bound: Listening;
  let exposition: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-dashboard-'));
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', LOG_LEVEL: 'silent' });
    runtime = await compose(config, createLogger('silent'));
    bound = await listen(runtime, config);
    const key = (await readFile(path.join(dataDir, 'demo-subscription-key'), 'utf8')).trim();
    // A few requests: readiness (the dependency checks), refusals without a key and without a token.
    expect((await fetch(`${bound.api}/health/ready`)).status).toBe(200);
    expect((await fetch(`${bound.api}/patients/journalnotes/`)).status).toBe(401);
    expect((await fetch(`${bound.api}/patients/journalnotes/`, { headers: { 'subscription-key': key } })).status).toBe(401);
    const scraped = await fetch(`${bound.metrics}/metrics`);
    expect(scraped.status).toBe(200);
    exposition = await scraped.text();
  });

  afterAll(async () => {
    await runtime?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('scrapes the service: its requests and its readiness checks are there as samples', () => {
    expect(exposition).toMatch(/^pdas_http_requests_total\{operation="[^"]+",status="401"\} [1-9]/m);
    expect(exposition).toMatch(/^pdas_dependency_up\{dependency="ehr"\} 1$/m);
    expect(exposition).toMatch(/^pdas_dependency_up\{dependency="audit"\} 1$/m);
  });

  it('reads the metric names of queries as Prometheus does', () => {
    expect(metricNames('histogram_quantile(0.99, sum by (le, call) (rate(pdas_ehr_call_duration_seconds_bucket{job=~"$job", status=~"5.."}[$__rate_interval])))'))
      .toEqual(['pdas_ehr_call_duration_seconds_bucket']);
    expect(metricNames('(min by (job) (a_seconds) - time() < 14 * 86400) > 3 and on (job) b_total offset 5m or c'))
      .toEqual(['a_seconds', 'b_total', 'c']);
    const declared = declaredMetrics('# TYPE h histogram\n# TYPE s summary\n# TYPE c_total counter\n');
    expect(['h_bucket', 'h_count', 's_sum', 'c_total'].map((n) => isExported(n, declared))).toEqual([true, true, true, true]);
    expect(['s_bucket', 'c_total_count', 'c', 'x'].map((n) => isExported(n, declared))).toEqual([false, false, false, false]);
  });

  it('queries in the dashboard name only exported metrics', () => {
    const declared = declaredMetrics(exposition);
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(15);
    const used = queries.flatMap(({ where, expr }) => metricNames(expr).map((name) => ({ where, name })));
    expect(used.filter((u) => !isExported(u.name, declared))).toEqual([]);
    // The panels the dashboard is for, each on its own metric.
    expect(new Set(used.map((u) => u.name))).toEqual(new Set([
      'pdas_http_requests_total', 'pdas_http_request_duration_seconds_bucket', 'pdas_rate_limit_rejections_total',
      'pdas_ehr_call_duration_seconds_bucket', 'pdas_ehr_errors_total', 'pdas_ehr_circuit_breaker_open',
      'pdas_dependency_up', 'pdas_dependency_changes_total', 'pdas_audit_write_duration_seconds_bucket', 'pdas_audit_write_failures_total',
      'pdas_rate_limit_unenforced_total', 'pdas_write_coordination_refused_total', 'pdas_tls_certificate_expiry_timestamp_seconds',
      'pdas_nodejs_eventloop_lag_p99_seconds', 'pdas_nodejs_eventloop_lag_p50_seconds', 'pdas_nodejs_heap_size_used_bytes',
      'pdas_nodejs_heap_size_total_bytes', 'pdas_process_resident_memory_bytes', 'pdas_process_cpu_seconds_total',
    ]));
  });

  it('expressions in alerts.yaml name only exported metrics, or kube-state-metrics\' for the nightly chain check', () => {
    const declared = declaredMetrics(exposition);
    const used = alertRules().flatMap((rule) => metricNames(rule.expr).map((name) => ({ alert: rule.alert, name })));
    expect(used.length).toBeGreaterThan(8);
    // Issue 44 item 10: the outcome of a CronJob reaches Prometheus through kube-state-metrics, not the service.
    const ofTheCluster = used.filter((u) => u.alert === 'PdasAuditChainUnverified');
    expect(new Set(ofTheCluster.map((u) => u.name))).toEqual(new Set(KUBE_STATE_METRICS));
    expect(used.filter((u) => u.alert !== 'PdasAuditChainUnverified' && !isExported(u.name, declared))).toEqual([]);
  });
});
