import { describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../dev/demo-data/people.js';
import type { DiagnosisEhrExtract } from '../../domain/records/index.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import { diagnosesAsFhir } from './as-fhir.js';
import { example, mapExample } from '../../../test/adapters/ehr-xml/fixtures.js';

describeFhirForm('getDiagnoses', []);

const person = DEMO_PEOPLE[0]!;
const ctx = asFhirContext(person);
const R = { system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R' };

/** A legacy diagnosis note: legacy words, a note date without its time, an action beside the diagnosis. */
const legacy: DiagnosisEhrExtract = {
  ehrId: { root: '1.2.752.99999.7', extension: 'D-17' },
  timeCreated: { value: '20260701120000' },
  diagnosisMetaData: {
    DiagnosisNoteDate: { value: '20260701' },
    DiagnosisTypeOfNote: 'Bidiagnos',
    DiagnosisActive: false,
    DiagnosisSecrecyLevels: { secrecyLevel: ['Sekretess'] },
    DiagnosisTemplateSecrecyLevels: { secrecyLevel: [] },
  },
  diagnoses: {
    diagnosis: [{
      diagnosisCode: 'J45.9', diagnosisCodeType: 'ICD-10-SE', diagnosisDescription: '  Astma,\n  ospecificerad ', diagnosis: [],
      action: [{ actionTerminology: '1.2.752.116.1.3.2.1.4', actionCode: 'DV011', actionDescription: 'Spirometri' }],
    }],
    action: [{ actionCode: 'AF020', actionSurgeryDateTime: { value: '20261214093000' } }],
  },
  units: { unit: [] },
  careProviders: { careProvider: [{ careProviderType: 'Diagnosställare', careProviderID: { root: '1.2.752.129.2.1.4.1', extension: 'SE-1' }, careProviderName: 'Doris' }] },
};

describe('getDiagnoses as FHIR, beyond the demo data', () => {
  const resources = diagnosesAsFhir.resources([{ diagnosisEHRExtract: [legacy] }], ctx);
  const condition = resources.find((r) => r.resourceType === 'Condition');
  const back = readBack('getDiagnoses', person, resources)[0]?.diagnosisEHRExtract[0];

  it('writes valid R4 resources for a legacy note', () => {
    expect(structureProblems(resources)).toEqual([]);
  });

  it('writes a legacy secrecy level as R, an inactive diagnosis as refuted, the legacy asserter as the asserter', () => {
    expect(condition?.meta).toEqual({ security: [R] });
    expect(condition?.verificationStatus).toEqual({ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'refuted' }] });
    expect(back?.diagnosisMetaData).toMatchObject({ DiagnosisActive: false, DiagnosisInactiveReason: 'refuted', DiagnosisSecrecyLevels: { secrecyLevel: ['R'] } });
    // A Practitioner's id is the inbound's internal id: one made from the HSA id comes back as one.
    expect(back?.careProviders.careProvider).toMatchObject([{ careProviderType: 'asserter', careProviderID: { root: '1.2.752.129.2.1.4.1', extension: 'SE-1' }, careProviderName: 'Doris' }]);
  });

  it('copies the description exactly and names the ICD-10-SE system the adapter sends', () => {
    expect(condition?.code).toEqual({ coding: [{ system: 'urn:oid:1.2.752.116.1.1.1', code: 'J45.9' }], text: '  Astma,\n  ospecificerad ' });
    expect(back?.diagnoses?.diagnosis[0]).toMatchObject({ diagnosisDescription: '  Astma,\n  ospecificerad ', diagnosisCodeType: 'ICD-10-SE' });
  });

  it('records the note at the extract\'s time that day, a 14-digit time with its season\'s offset', () => {
    expect(condition?.recordedDate).toBe('2026-07-01T12:00:00+02:00');
    const procedure = resources.find((r) => r.resourceType === 'Procedure' && r.performedDateTime !== undefined);
    expect(procedure?.performedDateTime).toBe('2026-12-14T09:30:00+01:00');
  });

  it('writes every action as a Procedure for the Condition, each with an id of its own', () => {
    const procedures = resources.filter((r) => r.resourceType === 'Procedure');
    expect(procedures.map((p) => p.reasonReference)).toEqual([[{ reference: `Condition/${condition?.id}` }], [{ reference: `Condition/${condition?.id}` }]]);
    expect(new Set(procedures.map((p) => p.id)).size).toBe(2);
    expect(back?.diagnoses?.diagnosis[0]?.action.map((a) => a.actionCode)).toEqual(['DV011', 'AF020']);
  });

  // Issue 45 item 13 (docs/upstream-fhir.md#312-diagnoses-operation-12: one extract per Condition). Failed before: this note gave three Conditions,
  // and the demo's five diagnosis notes of Tolvan and Gösta gave nine.
  it('writes a note as one Condition, of its first diagnosis with its type; every action of the note a Procedure for it', () => {
    const main = legacy.diagnoses?.diagnosis[0];
    if (main === undefined) throw new Error('no diagnosis');
    const cause = {
      rcId: { root: '1.2.752.99999.2', extension: 'D-17-1.1' }, diagnosisCode: 'W01', diagnosisCodeType: 'ICD-10-SE', diagnosisType: 'Yttre orsak', diagnosis: [],
      action: [{ actionCode: 'TNX10', actionDescription: 'Fallprevention' }],
    };
    const e: DiagnosisEhrExtract = { ...legacy, diagnoses: { action: legacy.diagnoses?.action ?? [], diagnosis: [
      { ...main, rcId: { root: '1.2.752.99999.2', extension: 'D-17-1' }, diagnosisType: 'Huvuddiagnos', diagnosis: [cause] },
      { rcId: { root: '1.2.752.99999.2', extension: 'D-17-2' }, diagnosisCode: 'I10', diagnosisCodeType: 'ICD-10-SE', diagnosisType: 'Bidiagnos', diagnosis: [], action: [] },
    ] } };
    const written = diagnosesAsFhir.resources([{ diagnosisEHRExtract: [e] }], ctx);
    expect(structureProblems(written)).toEqual([]);
    const conditions = written.filter((r) => r.resourceType === 'Condition');
    expect(conditions.map((c) => [c.id, (c.code as { coding: { code: string }[] }).coding[0]?.code, (c.category as { text: string }[])[0]?.text]))
      .toEqual([['D-17', 'J45.9', 'Huvuddiagnos']]);
    const extracts = readBack('getDiagnoses', person, written)[0]?.diagnosisEHRExtract ?? [];
    expect(extracts.map((x) => x.diagnoses?.diagnosis.map((d) => [d.diagnosisCode, d.diagnosisType, d.action.map((a) => a.actionCode)])))
      .toEqual([[['J45.9', 'Huvuddiagnos', ['DV011', 'TNX10', 'AF020']]]]);
  });

  it('writes the contact as an Encounter served by the care unit, under its head care provider', () => {
    const unit = (extension: string) => ({ unitID: { root: '1.2.752.129.2.1.4.1', extension } });
    const contact = { hCMContactInternalID: 'enc-2', hCMContactStatus: 'finished', contactPerformingUnit: 'vc', contactSecrecyLevels: { secrecyLevel: [] } };
    const e: DiagnosisEhrExtract = { ...legacy, hCMContact: contact, careUnit: unit('VC'), headCareProviderUnit: unit('HEAD') };
    const written = diagnosesAsFhir.resources([{ diagnosisEHRExtract: [e] }], ctx);
    expect(structureProblems(written)).toEqual([]);
    const extract = readBack('getDiagnoses', person, written)[0]?.diagnosisEHRExtract[0];
    expect(extract).toMatchObject({ hCMContact: contact, careUnit: unit('VC'), accessZoneUnit: unit('VC'), headCareProviderUnit: unit('HEAD') });
  });
});

// Issue 52 item 19d: the legacy example's notes in the autumn's repeated hour and the spring gap (and one on an
// ordinary day) carry no DiagnosisNoteDate. Failed before: their Conditions had no recordedDate, so a second instance
// read their timeCreated from meta.lastUpdated (or none); now each is the extract's time, converted as every other time
// is (docs/upstream-ehr.md#4-time: the gap's 02:05 is 03:05+02:00, the repeated 02:15 the earlier instant, +02:00).
describe('getDiagnoses as FHIR: a note without its note date is recorded at its extract\'s time, DST hours included', () => {
  const extracts = mapExample('diagnoses')(example('diagnoses.xml'))[0]?.diagnosisEHRExtract ?? [];
  const written = diagnosesAsFhir.resources([{ diagnosisEHRExtract: extracts }], ctx);
  const recorded = written.filter((r) => r.resourceType === 'Condition').map((c) => c.recordedDate);
  const back = readBack('getDiagnoses', person, written)[0]?.diagnosisEHRExtract ?? [];

  it('writes each note\'s recordedDate: its 14-digit time where the note has no note date, as every other time is written', () => {
    expect(extracts.map((x) => [x.timeCreated?.value, x.diagnosisMetaData?.DiagnosisNoteDate?.value])).toEqual([
      ['20250203101500', '20250203'], ['20251026021500', undefined], ['20251118091500', undefined], ['20250330030100', undefined], ['20250330020500', '20250330'],
    ]);
    expect(recorded).toEqual([
      '2025-02-03T10:15:00+01:00', '2025-10-26T02:15:00+02:00', '2025-11-18T09:15:00+01:00', '2025-03-30T03:01:00+02:00', '2025-03-30T03:05:00+02:00',
    ]);
  });

  it('reads every note back with a time of its own, none from meta.lastUpdated', () => {
    expect(written.filter((r) => r.resourceType === 'Condition' && r.recordedDate === undefined).map((r) => r.id)).toEqual([]);
    // The gap's 02:05 is no wall-clock time: it comes back as the instant it stands for, 03:05, as every time does.
    expect(back.map((x) => x.timeCreated?.value).sort()).toEqual(['20250203101500', '20250330030100', '20250330030500', '20251026021500', '20251118091500']);
  });
});
