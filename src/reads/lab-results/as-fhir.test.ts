import { describe, expect, it } from 'vitest';
import { parseFhirJson } from '../../adapters/ehr-fhir/fhir-json.js';
import { DEMO_PEOPLE } from '../../dev/demo-data/people.js';
import type { ChemistryReportEhrExtract, TestResult } from '../../domain/records/index.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import type { FhirResource } from '../as-fhir.js';
import { labResultsAsFhir } from './as-fhir.js';

describeFhirForm('getLabResults', []);

const person = DEMO_PEOPLE[0]!;
const ctx = asFhirContext(person);

const extract = (report: Partial<NonNullable<ChemistryReportEhrExtract['report']>>, more: Partial<ChemistryReportEhrExtract> = {}): ChemistryReportEhrExtract => ({
  ehrId: { root: ctx.idRoot, extension: 'DiagnosticReport/dr-t' },
  timeCreated: { value: '20261214093000' },
  report: { reportId: 't', reportStatus: 'final', testResult: [], ...report },
  attestingCareProviders: { attestingCareProvider: [] },
  careProviders: { careProvider: [] },
  units: { unit: [] },
  ...more,
});
const test = (i: number, t: Partial<TestResult>): TestResult =>
  ({ testId: `t${i}`, rcId: { root: ctx.idRoot, extension: `Observation/o${i}` }, testName: 'P-Glukos', status: 'final', ...t });

const written = (e: ChemistryReportEhrExtract) => labResultsAsFhir.resources([{ chemistryReportEHRExtract: [e] }], ctx);
/** The resources as the API sends them and a FHIR client (the inbound among them) reads them: JSON text. */
const overTheWire = (resources: readonly FhirResource[]): { text: string; resources: FhirResource[] } => {
  const text = JSON.stringify(resources);
  return { text, resources: parseFhirJson(text) as FhirResource[] };
};
const resultsBack = (resources: readonly FhirResource[]) =>
  readBack('getLabResults', person, resources)[0]?.chemistryReportEHRExtract[0]?.report?.testResult;

describe('getLabResults as FHIR, beyond the demo data', () => {
  // Issue 52 item 19b: a decimal written with a comma comes back as written. Failed before: '4,0' and '<12,5' came back
  // '4.0' and '<12.5' (the value with a point, the EHR's text lost).
  it('writes a decimal digit for digit, a legacy decimal comma as a point with its text in rendered-value, and reads each back as written', () => {
    const e = extract({ testResult: [
      test(1, { result: '4.0', unit: 'mmol/L' }), test(2, { result: '4,0' }), test(3, { result: '<5.10' }), test(4, { result: '1e3' }), test(5, { result: '08' }),
      test(6, { result: '<12,5', unit: '10*9/L' }), test(7, { result: '1,2,3' }),
    ] });
    const wire = overTheWire(written(e));
    const rendered = (text: string) => `"_value":{"extension":[{"url":"http://hl7.org/fhir/StructureDefinition/rendered-value","valueString":"${text}"}]}`;
    expect(wire.text).toContain('"valueQuantity":{"value":4.0,"unit":"mmol/L"}');
    expect(wire.text).toContain('"valueQuantity":{"value":5.10,"comparator":"<"}');
    expect(wire.text).toContain(`"valueQuantity":{"value":4.0,${rendered('4,0')}}`);
    expect(wire.text).toContain(`"valueQuantity":{"value":12.5,${rendered('12,5')},"comparator":"<","unit":"10*9/L"}`);
    expect(structureProblems(wire.resources)).toEqual([]);
    // `08` is no JSON number and `1,2,3` no decimal, so each stays the text it is.
    expect(resultsBack(wire.resources)?.map((t) => t.result)).toEqual(['4.0', '4,0', '<5.10', '1e3', '08', '<12,5', '1,2,3']);
  });

  // Hostile review helper-216, F3: a result that is no number lost its unit on the FHIR door. Failed before.
  it('writes a result that is no number beside its unit as that text in rendered-value, and reads both back', () => {
    const e = extract({ testResult: [test(1, { result: '1 234,5', unit: '×10⁹/L' }), test(2, { result: '9,40E1', unit: 'mmol/L' }), test(3, { result: 'Positiv' })] });
    const wire = overTheWire(written(e));
    expect(structureProblems(wire.resources)).toEqual([]);
    expect(resultsBack(wire.resources)?.map((t) => [t.result, t.unit])).toEqual([['1 234,5', '×10⁹/L'], ['9,40E1', 'mmol/L'], ['Positiv', undefined]]);
  });

  it('copies a text result and a commentary exactly, inner spaces and line breaks included', () => {
    const e = extract({ reportCommentary: ' Svar  i\n två rader ', testResult: [test(1, { result: 'Växt  av\n stavar >100 000', testCommentary: '  Rad ett\n\n  rad två ' })] });
    const back = readBack('getLabResults', person, written(e))[0]?.chemistryReportEHRExtract[0]?.report;
    expect(back?.reportCommentary).toBe(' Svar  i\n två rader ');
    expect(back?.testResult[0]).toMatchObject({ result: 'Växt  av\n stavar >100 000', testCommentary: '  Rad ett\n\n  rad två ' });
  });

  it('writes legacy statuses as the FHIR codes the same report has, a legacy secrecy level as R', () => {
    const [report, observation] = written(extract({ reportStatus: 'CO', secrecyClassification: 'Sekretess', testResult: [test(1, { status: 'Slutsvar', result: '5' })] }));
    expect(report).toMatchObject({ status: 'final', meta: { security: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' }] } });
    expect(observation).toMatchObject({ status: 'final' });
    expect(written(extract({ secrecyClassification: 'Normal' }))[0]?.meta).toBeUndefined();
  });

  it('writes a 14-digit time as an instant with the offset of its season', () => {
    expect(written(extract({}, { timeCreated: { value: '20260701120000' } }))[0]?.issued).toBe('2026-07-01T12:00:00+02:00');
    expect(written(extract({}, { timeCreated: { value: '20261214093000' } }))[0]?.issued).toBe('2026-12-14T09:30:00+01:00');
  });

  it('names each attester as its result\'s performer and the other attesting care providers as interpreters', () => {
    const hsa = (extension: string) => ({ root: '1.2.752.129.2.1.4.1', extension });
    const e = extract({ testResult: [test(1, { result: '5', attestDateTime: { value: '20261214100000' }, attestingCareProviderId: hsa('A') })] }, {
      attestingCareProviders: { attestingCareProvider: [
        { careProviderID: hsa('A'), careProviderName: 'Anna', providerPosition: { careProviderPositionName: 'Läkare' } },
        { careProviderID: hsa('B'), careProviderName: 'Bo' },
      ] },
    });
    const resources = written(e);
    expect(resources[0]?.resultsInterpreter).toEqual([{ reference: 'Practitioner/B' }]);
    expect(resources[1]?.performer).toEqual([{ reference: 'Practitioner/A' }]);
    expect(readBack('getLabResults', person, resources)[0]?.chemistryReportEHRExtract[0]?.attestingCareProviders)
      .toEqual(e.attestingCareProviders);
  });

  it('writes the contact as an Encounter served by the performing unit, a legacy status as its code', () => {
    const hsa = (extension: string) => ({ unitID: { root: '1.2.752.129.2.1.4.1', extension } });
    const unit = { ...hsa('LAB'), unitInternalID: 'lab', unitName: 'Labbet', phoneNumbers: { phone: [] }, emailAddresses: { Email: [] },
      unitAddresses: { unitAddress: [] }, unitSecrecyGroups: { group: [] }, accessZones: { accessZoneID: [] } };
    const contact = { hCMContactInternalID: 'enc-1', hCMContactBegin: { value: '20260701080000' }, hCMContactStatus: 'Avslutad', hCMContactType: 'Besök', contactPerformingUnit: 'lab' };
    const e = extract({}, { performingUnit: hsa('LAB'), units: { unit: [unit] }, hCMContact: { ...contact, contactSecrecyLevels: [] } });
    const resources = written(e);
    expect(structureProblems(resources)).toEqual([]);
    expect(resources.find((r) => r.resourceType === 'Encounter')).toMatchObject({ id: 'enc-1', status: 'finished', serviceProvider: { reference: 'Organization/lab' } });
    const back = readBack('getLabResults', person, resources)[0]?.chemistryReportEHRExtract[0];
    expect(back?.hCMContact).toEqual({ ...contact, hCMContactStatus: 'finished', contactSecrecyLevels: [] });
    expect(back?.performingUnit).toEqual(hsa('LAB'));
  });
});
