import { describe, expect, it } from 'vitest';
import { InstrumentedEhr } from '../../../src/adapters/metrics/instrumented-ehr.js';
import { PrometheusMetrics } from '../../../src/adapters/metrics/prometheus-metrics.js';
import { READ_NAMES } from '../../../src/domain/operations/table.js';
import type { DelegationRegistry } from '../../../src/ports/delegation-registry.port.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../../src/ports/ehr-records.port.js';

/** An EHR whose every read answers its own name; its request view is itself, or a new one per request. */
function ehrOf(viewPerRequest: boolean): EhrRecords & DelegationRegistry {
  const calls = (): EhrCalls => ({
    reads: Object.fromEntries(READ_NAMES.map((name) => [name, () => Promise.resolve([name])])) as unknown as EhrReads,
    registerArrival: () => Promise.reject(new Error('not here')),
    registerPayment: () => Promise.reject(new Error('not here')),
  });
  const ehr = {
    ...calls(),
    forRequest: (): EhrCalls => (viewPerRequest ? calls() : ehr),
    ping: () => Promise.resolve(true),
    relationshipsOf: () => Promise.resolve([]),
  };
  return ehr;
}

const readsCounted = async (metrics: PrometheusMetrics): Promise<string> =>
  (await metrics.registry.getSingleMetricAsString('pdas_ehr_call_duration_seconds')).split('\n').filter((l) => l.includes('_count{call="read:getAppointments"')).join('\n');

describe('issue 56 item 4: the timed calls of an EHR whose request view is itself are made once', () => {
  it('hands every request the same timed calls, each read still timed and answered by the EHR', async () => {
    const ehr = ehrOf(false);
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    const timed = new InstrumentedEhr(ehr, ehr, metrics);
    const first = timed.forRequest();
    expect(timed.forRequest()).toBe(first);
    expect(await first.reads.getAppointments('191212121212', {})).toEqual(['getAppointments']);
    expect(await timed.forRequest().reads.getAppointments('191212121212', {})).toEqual(['getAppointments']);
    expect(await readsCounted(metrics)).toContain('outcome="ok"} 2');
  });

  it('times a view made per request (xml-http keeps state per request) on a view of its own', async () => {
    const ehr = ehrOf(true);
    const metrics = new PrometheusMetrics({ defaultMetrics: false });
    const timed = new InstrumentedEhr(ehr, ehr, metrics);
    const first = timed.forRequest();
    expect(timed.forRequest()).not.toBe(first);
    expect(await first.reads.getAppointments('191212121212', {})).toEqual(['getAppointments']);
    expect(await readsCounted(metrics)).toContain('outcome="ok"} 1');
  });
});
