import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsExposition, RequestMetrics } from '../../ports/metrics.port.js';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The service's Prometheus metrics in a registry of its own (never the global one, so two apps
 * in one process do not share counters). Labels carry operations and outcomes, never identities.
 */
export class PrometheusMetrics implements RequestMetrics, MetricsExposition {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'pdas_http_requests_total', help: 'API requests by operation and status.',
    labelNames: ['operation', 'status'] as const, registers: [this.registry],
  });

  readonly requestDuration = new Histogram({
    name: 'pdas_http_request_duration_seconds', help: 'API request latency by operation and status.',
    labelNames: ['operation', 'status'] as const, buckets: SECONDS, registers: [this.registry],
  });

  readonly ehrCallDuration = new Histogram({
    name: 'pdas_ehr_call_duration_seconds', help: 'Latency of EHR calls by call and outcome.',
    labelNames: ['call', 'outcome'] as const, buckets: SECONDS, registers: [this.registry],
  });

  readonly ehrErrors = new Counter({
    name: 'pdas_ehr_errors_total', help: 'Failed EHR calls by call and failure kind.',
    labelNames: ['call', 'failure'] as const, registers: [this.registry],
  });

  readonly breakerOpen = new Gauge({
    name: 'pdas_ehr_circuit_breaker_open', help: '1 while the circuit breaker to the EHR is open.', registers: [this.registry],
  });

  readonly rateLimitRejections = new Counter({
    name: 'pdas_rate_limit_rejections_total', help: 'Requests refused with 429.', registers: [this.registry],
  });

  readonly auditWriteDuration = new Histogram({
    name: 'pdas_audit_write_duration_seconds', help: 'Latency of audit record writes.',
    labelNames: ['outcome'] as const, buckets: SECONDS, registers: [this.registry],
  });

  readonly auditWriteFailures = new Counter({
    name: 'pdas_audit_write_failures_total', help: 'Audit records that could not be stored.', registers: [this.registry],
  });

  readonly writeCoordinationFallbacks = new Counter({
    name: 'pdas_write_coordination_local_total',
    help: 'Writes serialised only within this instance because Redis was unreachable.', registers: [this.registry],
  });

  constructor(options: { defaultMetrics?: boolean } = {}) {
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'pdas_' });
  }

  requestAnswered(operation: string, status: number, seconds: number): void {
    const labels = { operation, status: String(status) };
    this.requests.inc(labels);
    this.requestDuration.observe(labels, seconds);
    if (status === 429) this.rateLimitRejections.inc();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  /** A value read at scrape time from elsewhere (e.g. Redis fail-open checks counted by its adapter). */
  observeCounter(name: string, help: string, read: () => number): void {
    new Counter({
      name, help, registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
}
