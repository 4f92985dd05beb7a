import { vi } from 'vitest';
import type { AnyEhr } from '../../support/test-app.js';

/**
 * Spies on every way the app can reach `ehr` (each read, the registry, both writes, and a request's
 * view of it, through which an adapter such as fhir-r4 serves that request's reads and writes) and
 * returns a counter of their calls: a request refused at the edge must leave it at what it was,
 * whichever back-end the suite runs over. `vi.restoreAllMocks()` removes the spies.
 */
export function countEhrCalls(ehr: AnyEhr): () => number {
  const reads = ehr.reads as unknown as Record<string, () => Promise<unknown>>;
  const spies = [
    ...Object.keys(reads).map((read) => vi.spyOn(reads, read)),
    vi.spyOn(ehr, 'relationshipsOf'), vi.spyOn(ehr, 'registerArrival'), vi.spyOn(ehr, 'registerPayment'), vi.spyOn(ehr, 'forRequest'),
  ];
  return () => spies.reduce((n, spy) => n + spy.mock.calls.length, 0);
}
