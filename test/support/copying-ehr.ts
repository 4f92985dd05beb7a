/**
 * An EHR whose every read answers fresh, unfrozen copies of its records, as an adapter that maps a
 * document anew for each request does (`xml-http` from an EHR without validators, `fhir-r4`): nothing
 * the service remembers of kept records (written-forms.ts, gathered-resources.ts, remembered-matches.ts,
 * searchset-bytes.ts, remembered-selection.ts) is ever found again over it, so every request takes the
 * path those memos short-cut. The tests that hold a memo's answers to the unremembered ones start one
 * app over the embedded EHR and one over it.
 */
import type { EhrCalls, EhrReads } from '../../src/ports/ehr-records.port.js';
import type { AnyEhr } from './test-app.js';

function copyingReads(reads: EhrReads): EhrReads {
  return new Proxy(reads, {
    get(target, name) {
      const reader = Reflect.get(target, name) as unknown;
      if (typeof reader !== 'function') return reader;
      return async (...args: unknown[]) => structuredClone(await (reader as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  }) as EhrReads;
}

const copyingCalls = (inner: EhrCalls): EhrCalls => ({
  reads: copyingReads(inner.reads),
  registerArrival: (patientId, contactId, arrivable) => inner.registerArrival(patientId, contactId, arrivable),
  registerPayment: (patientId, contactId, paymentType) => inner.registerPayment(patientId, contactId, paymentType),
});

/** `ehr`, its reads (and those of each request's view) answering copies. */
export function answeringCopies<E extends AnyEhr>(ehr: E): E {
  return new Proxy(ehr, {
    get(target, name) {
      if (name === 'reads') return copyingReads(target.reads);
      if (name === 'forRequest') return () => copyingCalls(target.forRequest());
      const member = Reflect.get(target, name) as unknown;
      return typeof member === 'function' ? (member as (...a: unknown[]) => unknown).bind(target) : member;
    },
  });
}

