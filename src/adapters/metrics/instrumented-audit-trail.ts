import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/** Times audit writes, counts the ones that could not be stored, and records the store's readiness. */
export class InstrumentedAuditTrail implements AuditTrail {
  constructor(private readonly trail: AuditTrail, private readonly metrics: PrometheusMetrics) {}

  async append(record: AuditRecord): Promise<void> {
    const end = this.metrics.auditWriteDuration.startTimer();
    try {
      await this.trail.append(record);
      end({ outcome: 'ok' });
    } catch (err) {
      end({ outcome: 'failed' });
      this.metrics.auditWriteFailures.inc();
      throw err;
    }
  }

  /** The readiness check: its answer is kept as pdas_dependency_up{dependency="audit"}. */
  ping(): Promise<boolean> {
    return this.metrics.observeCheck('audit', () => this.trail.ping());
  }

  close(): Promise<void> {
    return this.trail.close();
  }
}
