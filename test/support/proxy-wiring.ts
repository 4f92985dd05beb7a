/**
 * Sharing in a test app (docs/contract.md §11), wired as src/start/proxy-grants.ts and container.ts
 * wire it: the grants kept in memory, the use case over the app's clock, and the patients' own grants
 * beside the EHR's registry in the one delegation check.
 */
import { MemoryGrantStore } from '../../src/adapters/proxy-grants/memory-grant-store.js';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import type { ProxySettings } from '../../src/domain/proxies/grant.js';
import { personFacts } from '../../src/domain/proxies/people.js';
import { ProxyDelegation } from '../../src/domain/proxies/proxy-delegation.js';
import { ProxyGrants } from '../../src/domain/proxies/proxy-grants.js';
import type { FhirIds } from '../../src/ports/fhir-ids.port.js';
import type { Clock } from '../../src/ports/clock.port.js';
import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';
import { ZONE } from './app-wiring.js';

/** The service's defaults (src/start/proxy-settings.ts). */
export const DEFAULT_PROXY_SETTINGS: ProxySettings = { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 };

export interface TestSharing {
  store: MemoryGrantStore;
  proxyGrants: ProxyGrants;
  accessPolicy: PatientAccessPolicy;
}

/** Grant ids in order, each 32 hex digits as the service's are: deterministic, yet never one the tests name as unknown. */
function idMaker(): () => string {
  let n = 0;
  return () => `a${(++n).toString(16).padStart(31, '0')}`;
}

export function sharingOver(ehr: EhrRecords & DelegationRegistry, clock: Clock, settings: ProxySettings, ids?: FhirIds): TestSharing {
  const store = new MemoryGrantStore();
  const proxyGrants = new ProxyGrants({ store, clock, zone: ZONE, settings, facts: (person) => personFacts(ehr, person), newId: idMaker() });
  const registry = new ProxyDelegation(ehr, store);
  const accessPolicy = new PatientAccessPolicy(ehr, registry, clock, ZONE, ids === undefined ? undefined : (id) => ids.identityNumberOf(id));
  return { store, proxyGrants, accessPolicy };
}
