import type { AuditRecord, AuditTrail } from '../../ports/audit-trail.port.js';
import type { PrometheusMetrics } from './prometheus-metrics.js';

/** Times audit writes and counts the ones that could not be stored. */
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

  ping(): Promise<boolean> {
    return this.trail.ping();
  }

  close(): Promise<void> {
    return this.trail.close();
  }
}
