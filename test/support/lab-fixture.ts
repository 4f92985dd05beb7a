/**
 * Lab results as a FHIR EHR sends them and the demo data does not (yet): values the laboratory marked
 * high (`H`) and low (`L`), and one below the limit it can measure (`<5`, comparator `<`), months
 * apart. Two tests the demo people have (P-CRP, B-Hemoglobin, by their NPU codes), so their plots
 * and tables hold the fixture's values beside the record's own. For the patient app's browser test.
 */
const NPU = 'urn:oid:1.2.208.176.2.1';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const DAY = 24 * 60 * 60 * 1000;

interface Result { id: string; code: string; name: string; daysAgo: number; value: number; comparator?: '<'; unit: string; flag: string; range: string }

const RESULTS: readonly Result[] = [
  { id: 'fixture-crp-1', code: 'NPU19748', name: 'P-CRP', daysAgo: 150, value: 48, unit: 'mg/L', flag: 'H', range: '<5' },
  { id: 'fixture-crp-2', code: 'NPU19748', name: 'P-CRP', daysAgo: 120, value: 12, unit: 'mg/L', flag: 'H', range: '<5' },
  { id: 'fixture-crp-3', code: 'NPU19748', name: 'P-CRP', daysAgo: 90, value: 5, comparator: '<', unit: 'mg/L', flag: 'N', range: '<5' },
  { id: 'fixture-hb-1', code: 'NPU28309', name: 'B-Hemoglobin (Hb)', daysAgo: 140, value: 118, unit: 'g/L', flag: 'L', range: '134–170' },
  { id: 'fixture-hb-2', code: 'NPU28309', name: 'B-Hemoglobin (Hb)', daysAgo: 100, value: 124, unit: 'g/L', flag: 'L', range: '134–170' },
];

/** The fixture's Observations of `patient` (`Patient/<id>`), as searchset entries. */
export function labFixture(patient: string, now = Date.now()): object[] {
  return RESULTS.map((r) => ({
    fullUrl: `urn:uuid:${r.id}`,
    search: { mode: 'match' },
    resource: {
      resourceType: 'Observation', id: r.id, status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: NPU, code: r.code }], text: r.name },
      subject: { reference: patient },
      effectiveDateTime: new Date(now - r.daysAgo * DAY).toISOString(),
      valueQuantity: { value: r.value, unit: r.unit, ...(r.comparator === undefined ? {} : { comparator: r.comparator }) },
      interpretation: [{ coding: [{ system: INTERPRETATION, code: r.flag }] }],
      referenceRange: [{ text: r.range }],
    },
  }));
}
