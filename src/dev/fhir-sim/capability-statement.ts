/**
 * The CapabilityStatement of the development FHIR server. Medplum's router has no `/metadata`, so it
 * is made here as the FHIR examples' serve.mjs makes it: the R4 search parameters Medplum indexes, per
 * type, and what the router does (read, vread, search, create, update with If-Match, conditional
 * create). `patch` is not offered: Medplum 4.5's router applies a PATCH without checking If-Match,
 * and a write without a version check must never be chosen (an update is, with one). It describes
 * Medplum, not any vendor's server.
 */
import { searchParametersByType } from './medplum-definitions.js';

const INTERACTIONS = ['read', 'vread', 'history-instance', 'search-type', 'create', 'update'];

/** A search parameter the statement leaves out, as a server that lacks it would (issue 57 item 4's tests). */
export interface LackedSearch {
  type: string;
  param: string;
}

export function capabilityStatement(lacking: readonly LackedSearch[] = []): Record<string, unknown> {
  const lacks = (type: string, param: { name: string }): boolean => lacking.some((l) => l.type === type && l.param === param.name);
  const byType = new Map([...searchParametersByType()].map(([type, params]) => [type, params.filter((p) => !lacks(type, p))]));
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: '2026-01-01',
    kind: 'instance',
    fhirVersion: '4.0.1',
    format: ['application/fhir+json'],
    patchFormat: ['application/json-patch+json'],
    rest: [{
      mode: 'server',
      interaction: [{ code: 'transaction' }, { code: 'batch' }],
      searchParam: byType.get('Resource'),
      resource: [...byType].filter(([type]) => type !== 'Resource' && type !== 'DomainResource').map(([type, searchParam]) => ({
        type,
        versioning: 'versioned-update',
        conditionalCreate: true,
        searchParam,
        interaction: INTERACTIONS.map((code) => ({ code })),
      })),
    }],
  };
}
