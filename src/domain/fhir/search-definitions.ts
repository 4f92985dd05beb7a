/**
 * Where FHIR R4 defines each search parameter the API serves: the canonical URL of its
 * SearchParameter, which the CapabilityStatement gives as `searchParam.definition` (R4: it SHALL be
 * set for a parameter the core specification defines). R4 names most `<Type>-<code>`; the ones it
 * defines once for several types have an id of their own, listed here with the types they are
 * defined on (R4's search-parameters.json, which test/http/fhir/capability-claims.test.ts checks
 * every definition against). A parameter a type declares as its own (`own`) has none.
 */
const R4_BASE = 'http://hl7.org/fhir/SearchParameter/';

/** R4's shared definitions, by id: the code and the types (of those the API serves) it is defined on. */
const SHARED: readonly { id: string; code: string; types: readonly string[] }[] = [
  { id: 'Resource-id', code: '_id', types: ['*'] },
  { id: 'clinical-patient', code: 'patient', types: ['AllergyIntolerance', 'Composition', 'Condition', 'DiagnosticReport', 'Encounter', 'Flag', 'MedicationRequest', 'Observation', 'Procedure'] },
  { id: 'clinical-date', code: 'date', types: ['AllergyIntolerance', 'Composition', 'DiagnosticReport', 'Encounter', 'Flag', 'Observation', 'Procedure'] },
  { id: 'clinical-encounter', code: 'encounter', types: ['Composition', 'DiagnosticReport', 'Flag', 'Observation', 'Procedure'] },
  { id: 'clinical-code', code: 'code', types: ['AllergyIntolerance', 'Condition', 'DiagnosticReport', 'Medication', 'MedicationRequest', 'Observation', 'Procedure'] },
  { id: 'medications-status', code: 'status', types: ['MedicationRequest'] },
  { id: 'medications-medication', code: 'medication', types: ['MedicationRequest'] },
  { id: 'medications-encounter', code: 'encounter', types: ['MedicationRequest'] },
];

/** The canonical URL of R4's definition of `code` on `type`. */
export function r4Definition(type: string, code: string): string {
  const shared = SHARED.find((d) => d.code === code && (d.types.includes(type) || d.types.includes('*')));
  return `${R4_BASE}${shared?.id ?? `${type}-${code}`}`;
}
