import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsExposition, RequestMetrics } from '../../ports/metrics.port.js';
import { NotificationMetrics } from './notification-metrics.js';
import { READ_NAMES } from '../../domain/operations/table.js';
import { UNAVAILABILITIES, type UnavailableReads } from '../../domain/read-availability/unavailable-read.js';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The service's Prometheus metrics in a registry of its own (never the global one, so two apps
 * in one process do not share counters). Labels carry operations and outcomes, never identities.
 */
export class PrometheusMetrics implements RequestMetrics, MetricsExposition {
  readonly registry = new Registry();
  /** The notification engine's (docs/notifications.md), registered whether or not subscriptions are on. */
  readonly notifications = new NotificationMetrics(this.registry);

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

  /** Issue 56: how the EHR answered the conditional GETs of documents the `xml-http` adapter keeps (src/adapters/ehr-xml-http/kept-answers.ts). */
  readonly ehrConditionalRequests = new Counter({
    name: 'pdas_ehr_conditional_requests_total',
    help: 'Conditional GETs of EHR documents by answer: not-modified (304, answered from the kept records), modified (200, mapped anew), refetched (a 304 about nothing kept now; asked again in full).',
    labelNames: ['answer'] as const, registers: [this.registry],
  });

  /** Issue 56: document reads of the XML adapters, answered from the records kept under EHR_CACHE_BYTES or mapped anew. */
  readonly mappedDocuments = new Counter({
    name: 'pdas_mapped_documents_total', help: 'EHR documents read by the XML adapters, by outcome: kept (answered from the kept records), mapped (mapped anew).',
    labelNames: ['outcome'] as const, registers: [this.registry],
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

  /** Set each time a signed head of the audit chain is logged (docs/operations.md#signed-heads); 0 until the first. */
  readonly auditHeadSigned = new Gauge({
    name: 'pdas_audit_head_signed_timestamp_seconds', help: 'When this instance last logged a signed head of the audit chain, in Unix seconds (0: none yet).',
    registers: [this.registry],
  });

  readonly auditHeadInterval = new Gauge({
    name: 'pdas_audit_head_interval_seconds', help: 'AUDIT_HEAD_INTERVAL_MS in seconds: how often a signed head of the audit chain is logged.',
    registers: [this.registry],
  });

  readonly auditHeadFailures = new Counter({
    name: 'pdas_audit_head_failures_total', help: 'Signed heads of the audit chain that could not be made (the audit store away).', registers: [this.registry],
  });

  readonly writesRefusedUncoordinated = new Counter({
    name: 'pdas_write_coordination_refused_total',
    help: 'Arrivals and payments refused (503), and not made, because Redis was unreachable: their turns could not be taken across instances.',
    registers: [this.registry],
  });

  /** What /health/ready asked last, per dependency: the instance is ready while every one is 1. */
  readonly dependencyUp = new Gauge({
    name: 'pdas_dependency_up', help: '1 if the dependency (ehr, audit, redis, registry) answered its latest readiness check, else 0.',
    labelNames: ['dependency'] as const, registers: [this.registry],
  });

  /**
   * The reads not served, as /health/ready found them last (issue 57 item 4): 1 for a read and why, 0
   * otherwise. The instance stays ready for the others, so this is where a read gone missing shows.
   */
  readonly readUnavailable = new Gauge({
    name: 'pdas_read_unavailable', help: '1 if the read is not served, by why: turned-off (READS_OFF) or ehr-lacks-searches (the FHIR server does not list a search parameter it sends), as the latest readiness check found; else 0.',
    labelNames: ['read', 'reason'] as const, registers: [this.registry],
  });

  /** Counted on the instance, so a readiness that flaps between two scrapes is not missed. */
  readonly dependencyChanges = new Counter({
    name: 'pdas_dependency_changes_total', help: 'Times a dependency\'s readiness check changed between up and down.',
    labelNames: ['dependency'] as const, registers: [this.registry],
  });

  /** The service's own authorization server (docs/sign-in.md): logins refused at or after the region's login, and the region not discoverable. */
  readonly signInFailures = new Counter({
    name: 'pdas_sign_in_failures_total', help: 'Sign-ins that granted nothing: login (refused or cancelled at the region\'s login), discovery (the region\'s login unreachable).',
    labelNames: ['kind'] as const, registers: [this.registry],
  });

  /** Token requests the authorization server refused (invalid_grant, a revoked or reused refresh token, a wrong verifier). */
  readonly tokenRefusals = new Counter({
    name: 'pdas_token_refusals_total', help: 'Token requests refused by the service\'s own authorization server, by error.',
    labelNames: ['error'] as const, registers: [this.registry],
  });

  /** Forms of the authorization server's pages posted without their page's token (CSRF): nothing was done. */
  readonly formRefusals = new Counter({
    name: 'pdas_sign_in_form_refusals_total', help: 'Forms of the authorization server\'s pages refused for a missing or wrong CSRF token, by form (interaction, connected-apps).',
    labelNames: ['form'] as const, registers: [this.registry],
  });

  signInFailed(kind: 'login' | 'discovery'): void {
    this.signInFailures.inc({ kind });
  }

  formRefused(form: 'interaction' | 'connected-apps'): void {
    this.formRefusals.inc({ form });
  }

  tokenRefused(error: string): void {
    this.tokenRefusals.inc({ error });
  }

  private readonly dependencyStates = new Map<string, boolean>();
  private readonly certificates = new Map<string, () => Date | undefined>();
  private unenforced: () => number = () => 0;

  /** Read at scrape time, so a certificate reloaded from its files shows at once. */
  readonly certificateExpiry: Gauge<'certificate'>;
  /** Registered whether or not REDIS_URL is set (0 without it), like every other metric. */
  readonly rateLimitUnenforced: Counter;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const certificates = this.certificates;
    this.certificateExpiry = new Gauge({
      name: 'pdas_tls_certificate_expiry_timestamp_seconds',
      help: 'When the certificate in use expires, in Unix seconds: api (TLS_CERT_FILE), ehr-client (EHR_TLS_CERT_FILE).',
      labelNames: ['certificate'] as const, registers: [this.registry],
      collect() {
        this.reset();
        for (const [certificate, expiry] of certificates) {
          const at = expiry();
          if (at !== undefined) this.set({ certificate }, Math.floor(at.getTime() / 1000));
        }
      },
    });
    const unenforced = (): number => this.unenforced();
    this.rateLimitUnenforced = new Counter({
      name: 'pdas_rate_limit_unenforced_total', help: 'Requests let through unlimited while Redis was unreachable.', registers: [this.registry],
      collect() {
        this.reset();
        this.inc(unenforced());
      },
    });
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: 'pdas_' });
    // Shown at 0 from the start, as every metric is, whatever the EHR adapter.
    for (const answer of ['not-modified', 'modified', 'refetched']) this.ehrConditionalRequests.inc({ answer }, 0);
    for (const outcome of ['kept', 'mapped']) this.mappedDocuments.inc({ outcome }, 0);
    this.observeUnavailableReads(new Map());
  }

  /** Runs a readiness check of `dependency` and records its answer (a rejection counts as down and is passed on). */
  async observeCheck(dependency: string, check: () => Promise<boolean>): Promise<boolean> {
    let up = false;
    try {
      up = await check();
      return up;
    } finally {
      const before = this.dependencyStates.get(dependency);
      if (before === undefined) this.dependencyChanges.inc({ dependency }, 0);
      else if (before !== up) this.dependencyChanges.inc({ dependency });
      this.dependencyStates.set(dependency, up);
      this.dependencyUp.set({ dependency }, up ? 1 : 0);
    }
  }

  /** Records which reads are not served and why (every read and reason, 0 where it is not so); `unavailable` is passed on. */
  observeUnavailableReads(unavailable: UnavailableReads): UnavailableReads {
    for (const read of READ_NAMES) {
      for (const reason of UNAVAILABILITIES) this.readUnavailable.set({ read, reason }, unavailable.get(read) === reason ? 1 : 0);
    }
    return unavailable;
  }

  /** `expiry` gives the expiry of the certificate in use now (undefined: none). */
  observeCertificate(certificate: 'api' | 'ehr-client', expiry: () => Date | undefined): void {
    this.certificates.set(certificate, expiry);
  }

  /** Where the count of requests let through while Redis was unreachable is read (its adapter's). */
  countUnenforcedFrom(read: () => number): void {
    this.unenforced = read;
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
}
