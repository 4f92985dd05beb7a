import { describe, expect, it } from 'vitest';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, recordsOverFhir, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import { ZONE } from '../../../test/support/test-app.js';
import { selectInRange } from '../../domain/operations/table.js';
import { demoPerson } from '../../dev/demo-data/people.js';
import type { FhirResource } from '../as-fhir.js';
import type { AttentionSignal, AttentionSignalEhrExtract } from './answer.js';
import { attentionSignalsAsFhir } from './as-fhir.js';

describeFhirForm('getAttentionSignals', []);

const ctx = asFhirContext(demoPerson('191212121212'));
const HSA = '1.2.752.129.2.1.4.1';

type Signal = NonNullable<AttentionSignalEhrExtract['AttentionSignal']>;
const extract = (id: string, signal: Partial<Signal>, more: Partial<AttentionSignalEhrExtract> = {}): AttentionSignalEhrExtract => ({
  ehr_id: { root: '1.2.752.99999.1.1', extension: id },
  time_created: { value: '20260115093000' },
  AttentionSignal: { MedicalRecordLinks: { MedicalRecordLinkData: [] }, ...signal },
  Units: { Unit: [] },
  CareProviders: { CareProvider: [] },
  ...more,
});
const write = (...extracts: AttentionSignalEhrExtract[]): FhirResource[] =>
  attentionSignalsAsFhir.resources([{ AttentionSignalEHRExtract: extracts, XSDVersion: { version: 2.1 } }] satisfies AttentionSignal[], ctx);
const hypersensitivity = (h: Partial<NonNullable<Signal['HypersensitivityType']>>): Partial<Signal> => ({
  SignalDataType: 'Hypersensitivity', HypersensitivityType: { ReactionTypes: [], Agent: [], SignalATCCodes: { signalATCCode: [] }, ...h },
});
const ofType = (resources: FhirResource[], type: string) => resources.filter((r) => r.resourceType === type) as Record<string, unknown>[];

describe('getAttentionSignals as FHIR, beyond the demo data', () => {
  it('reads back every demo person\'s signals once the adapter orders them by time_created, as it does every answer', async () => {
    for (const { person, records } of await recordsOverFhir('getAttentionSignals')) {
      const back = readBack('getAttentionSignals', person, attentionSignalsAsFhir.resources(records, asFhirContext(person)));
      expect(selectInRange('getAttentionSignals', back, {}, ZONE), person.id).toEqual(records);
    }
  });

  it('writes the legacy words of a record read from the legacy EHR as FHIR\'s codes', () => {
    const resources = write(extract('AllergyIntolerance/a1', {
      ...hypersensitivity({ Severity: 'Livshotande', Certitude: 'Misstänkt' }), SignalWarningSubType: 'Födoämnesöverkänslighet', SignalActive: true,
    }, {
      CareUnit: { unitID: { root: HSA, extension: 'SE2321000016-AK01' } },
      CareProviders: { CareProvider: [{ CareProviderType: 'SIGNERARE', CareProviderID: { root: HSA, extension: 'SE2321000016-L0K1' }, CareProviderName: 'Doris Doktorsson' }] },
    }));
    const [allergy] = ofType(resources, 'AllergyIntolerance');
    expect(allergy).toMatchObject({ criticality: 'high', category: ['food'], verificationStatus: { coding: [{ code: 'unconfirmed' }] } });
    const [role] = ofType(resources, 'PractitionerRole');
    expect(allergy?.recorder).toEqual({ reference: `PractitionerRole/${role?.id as string}` });
    expect(role?.organization).toEqual({ reference: 'Organization/SE2321000016-AK01' });
    expect(structureProblems(resources)).toEqual([]);
  });

  it('gives each legacy signal its own id by its RcId: a legacy ehr_id names the patient\'s whole record', () => {
    const legacy = (rc: string) => extract('TOLV:EhrId:191212121212', {
      SignalDataType: 'Unstructured', RcId: { root: '1.2.752.99999.1.2', extension: `TOLV:RcId:AttentionSignal:${rc}` },
    });
    const flags = ofType(write(legacy('000101'), legacy('000187')), 'Flag');
    expect(new Set(flags.map((f) => f.id)).size).toBe(2);
  });

  it('issue 45 item 12: takes a signal\'s id from its own ehr_id, whatever its RcId holds (a colon gave a digest)', () => {
    const own = (ehr: string, rc: string) => ({
      ...extract('unused', { SignalDataType: 'Unstructured', RcId: { root: '1.2.752.99999.1.2', extension: `TOLV:RcId:AttentionSignal:${rc}` } }),
      ehr_id: { root: '1.2.752.99999.1.1.1', extension: ehr },
    });
    const allergy = { ...own('3f1c0b2e-aa10-4d2b-a001-000000000002', '000102'), AttentionSignal: { MedicalRecordLinks: { MedicalRecordLinkData: [] }, ...hypersensitivity({}) } };
    const resources = write(own('3f1c0b2e-aa10-4d2b-a001-000000000001', '000101'), allergy);
    expect(ofType(resources, 'Flag').map((f) => f.id)).toEqual(['3f1c0b2e-aa10-4d2b-a001-000000000001']);
    expect(ofType(resources, 'AllergyIntolerance').map((f) => f.id)).toEqual(['3f1c0b2e-aa10-4d2b-a001-000000000002']);
  });

  it('keeps a certitude FHIR has no code for as the verification status\'s text', () => {
    const [allergy] = ofType(write(extract('AllergyIntolerance/a2', hypersensitivity({ Certitude: 'Enligt anhörig' }))), 'AllergyIntolerance');
    expect(allergy?.verificationStatus).toEqual({ text: 'Enligt anhörig' });
  });

  it('copies a comment and a heading exactly, inner spaces and line breaks included', () => {
    const comment = 'Reagerade  kraftigt.\n\nSe journal 2025-01-03 ';
    const [allergy] = ofType(write(extract('AllergyIntolerance/a3', hypersensitivity({ Heading: ' Penicillin  V', Comment: comment }))), 'AllergyIntolerance');
    expect(allergy).toMatchObject({ note: [{ text: comment }], code: { text: ' Penicillin  V' } });
  });

  it('writes a deletion\'s comment as written, at its time, beside the comment, and reads both back as they were', () => {
    const comment = 'Kontakteksem under plåster.';
    const deletion = 'Ej verifierad vid lapptest \u2013 makulerad';
    const record = extract('AllergyIntolerance/a4', {
      ...hypersensitivity({ Heading: 'Plåster (kolofonium)', Certitude: 'Misstänkt', Comment: comment }),
      SignalActive: false, SignalDeletionDate: { value: '20250512083000' }, SignalDeletionComment: deletion,
    });
    const resources = write(record);
    const [allergy] = ofType(resources, 'AllergyIntolerance');
    expect(allergy?.note).toEqual([{ text: comment }, expect.objectContaining({ time: '2025-05-12T08:30:00+02:00', text: deletion })]);
    expect(structureProblems(resources)).toEqual([]);
    const back = readBack('getAttentionSignals', demoPerson('191212121212'), resources)[0]?.AttentionSignalEHRExtract[0]?.AttentionSignal;
    expect(back).toMatchObject({ SignalActive: false, SignalDeletionDate: { value: '20250512083000' }, SignalDeletionComment: deletion });
    expect(back?.HypersensitivityType?.Comment).toBe(comment);
  });

  it('writes times as instants with the offset of their season, and a deletion as the end of an inactive Flag', () => {
    const flag = (created: string, deleted?: string) => ofType(write(extract('Flag/f1', {
      SignalDataType: 'ContagiousDisease', SignalActive: deleted === undefined, ContagiousDiseaseType: { Heading: 'MRSA' },
      ...(deleted === undefined ? {} : { SignalDeletionDate: { value: deleted } }),
    }, { time_created: { value: created } })), 'Flag')[0];
    expect(flag('20260115093000')).toMatchObject({ status: 'active', period: { start: '2026-01-15T09:30:00+01:00' } });
    expect(flag('20260715093000', '20261101120000')).toMatchObject({
      status: 'inactive', period: { start: '2026-07-15T09:30:00+02:00', end: '2026-11-01T12:00:00+01:00' },
    });
  });

  it('tells an ATC treatment code from a KVÅ one by its form', () => {
    const codes = (TreatmentCode: string) => (ofType(write(extract('Flag/f2', {
      SignalDataType: 'TreatmentAndCondition', TreatmentAndConditionType: { Heading: 'Behandling', TreatmentCode },
    })), 'Flag')[0]?.code as { coding: { system: string }[] }).coding.map((c) => c.system);
    expect(codes('B01AA03')).toEqual(['http://www.whocc.no/atc']);
    expect(codes('DT016')).toEqual(['urn:oid:1.2.752.116.1.3.2.1.4']);
  });

  it('writes the staff author of a Flag as its one author, and its CareUnit where there is none', () => {
    const staff = write(extract('Flag/f3', { SignalDataType: 'Unstructured', UnstructuredType: { Heading: 'Vårdbegränsning' } }, {
      CareUnit: { unitID: { root: HSA, extension: 'SE2321000016-A23X' } },
      CareProviders: { CareProvider: [{ CareProviderType: 'author', CareProviderInternalID: 'prac-doris', CareProviderName: 'Doris Doktorsson' }] },
    }));
    expect(ofType(staff, 'Flag')[0]?.author).toEqual({ reference: 'Practitioner/prac-doris' });
    const unit = write(extract('Flag/f4', { SignalDataType: 'Unstructured' }, { CareUnit: { unitID: { root: HSA, extension: 'SE2321000016-A23X' } } }));
    expect(ofType(unit, 'Flag')[0]?.author).toEqual({ reference: 'Organization/SE2321000016-A23X' });
  });
});
