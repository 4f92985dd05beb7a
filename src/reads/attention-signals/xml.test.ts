/**
 * Issue 13: the attention-signals mirror document (AttentionSignalEHRExtracts, major 2) against the
 * vendor's attention signal layout, field by field, every trap the example lists included.
 */
import { describe, expect, it } from 'vitest';
import { selectDocument } from '../../../test/support/document-reads.js';
import { edit, example, HSA, ii, mapExample, PATIENT, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('attentionsignals');
const base = example('attentionsignals.xml');

describe('issue 13: AttentionSignalEHRExtracts example', () => {
  const answer = map(base);
  const signals = answer[0]?.AttentionSignalEHRExtract ?? [];
  const [penicillin, mrsa, limitation, warfarin, plaster] = signals;

  it('answers one element with the five extracts in document order and the root version as a number', () => {
    expect(answer).toHaveLength(1);
    expect(answer[0]?.XSDVersion).toEqual({ version: 2.1 });
    expect(signals.map((s) => s.AttentionSignal?.RcId?.extension?.slice(-6))).toEqual(['000101', '000187', '000190', '000102', '000175']);
  });

  it('maps the hypersensitivity field by field: attributes and elements, repeated Agent and ReactionTypes, ATC codes', () => {
    expect(penicillin?.AttentionSignal).toEqual({
      RcId: ii('TOLV:RcId:AttentionSignal:000101', '1.2.752.99999.1.2'),
      SignalVersionDateTime: { value: '20230912101500' },
      SignalVerifiedDateTime: '20191106091500',
      SignalSignDateTime: { value: '20191105150102' },
      SignalActive: true,
      SignalWarningSubType: 'Läkemedelsöverkänslighet',
      SignalDataType: 'Hypersensitivity',
      MedicalRecordLinks: { MedicalRecordLinkData: [{ RcId: ii('TOLV:RcId:JournalNote:000298877', '1.2.752.99999.1.2') }] },
      HypersensitivityType: {
        Heading: 'Penicilliner',
        Comment: 'Anafylaktisk reaktion 2019 efter V-penicillin \u2013 adrenalin gavs på akuten.\n'
          + 'Undvik alla betalaktamer tills allergiutredning är gjord.',
        Severity: 'Livshotande',
        Certitude: 'Bekräftad',
        Reaction: 'Anafylaxi',
        ReasessmentRequired: false,
        ReactionTypes: ['Anafylaxi', 'Urtikaria'],
        SignalATCCodes: {
          signalATCCode: [
            { Code: 'J01CE02', CodeSystem: '1.2.752.129.2.2.3.1', CodeSystemName: 'ATC', DisplayName: { value: 'Fenoximetylpenicillin' } },
            { Code: 'J01CE01', CodeSystem: '1.2.752.129.2.2.3.1', CodeSystemName: 'ATC', DisplayName: { value: 'Bensylpenicillin' } },
          ],
        },
        Agent: ['Fenoximetylpenicillin', 'Bensylpenicillin'],
      },
    });
  });

  it('maps the patient, the SimpleUnits (unitID) beside the PascalCase Units (UnitID, unitInternalID) and the care providers', () => {
    expect(penicillin?.Patient).toEqual({
      PatientID: ii(PATIENT, '1.2.752.129.2.1.3.1'), PatientInternalID: '00012345', PatientProtectedId: false,
      PatientSecrecyGroups: { Group: ['PRIMARVARD'] },
      PatientName: { PatientFamilyName: 'Tolvansson', PatientMiddleName: 'Öberg', PatientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }] },
    });
    expect(penicillin?.CareUnit).toEqual({ unitID: ii('SE2321000016-9AKM', HSA), unitLocalID: ii('0815', '1.2.752.99999.1.4') });
    expect(penicillin?.AccessZoneUnit).toEqual({ unitID: ii('SE2321000016-9AKM', HSA) });
    expect(penicillin?.Units.Unit).toEqual([{
      UnitID: ii('SE2321000016-9AKM', HSA), UnitLocalID: ii('0815', '1.2.752.99999.1.4'), unitInternalID: '0000815',
      UnitName: 'Akutmottagningen Exempelsjukhuset', HeadCareproviderUnitID: ii('SE2321000016-0001', HSA),
      UnitSecrecyGroups: { Group: [] },
      AccessZones: { AccessZoneID: [ii('00000031', '1.2.752.99999.1.7')] },
      PhoneNumbers: { Phone: [{ PhoneType: 'VAXEL', PhoneNumber: '08-46500431', PhoneComment: 'Dygnet runt' }] },
      EmailAddresses: { Email: [] },
      UnitAddresses: {
        UnitAddress: [{
          UnitAddressType: 'BESOK', UnitAddressAddress: 'Sjukhusvägen 12, entré C', UnitAddressPostcode: '118 83',
          UnitAddressCity: 'Stockholm', UnitAddressCountry: 'Sverige',
        }],
      },
    }]);
    expect(penicillin?.CareProviders.CareProvider).toEqual([{
      CareProviderType: 'SIGNERARE', CareProviderID: ii('SE2321000016-L9A2', HSA), CareProviderInternalID: '00040221',
      CareProviderName: 'Åke Akutsson',
      ProviderPosition: { careProviderPositionID: ii('LK', '1.2.752.99999.1.7'), careProviderPositionName: 'Specialist i akutsjukvård' },
      CareProviderUnit: { unitID: ii('SE2321000016-9AKM', HSA) },
    }]);
  });

  it('maps the contagious disease, a plain-string date, an 8-digit TS and a unit named "23"', () => {
    expect(mrsa?.time_created).toEqual({ value: '20241027023000' });
    expect(mrsa?.AttentionSignal?.SignalReassessmentEndDate).toBe('20251027');
    expect(mrsa?.AttentionSignal?.ContagiousDiseaseType).toEqual({
      Heading: 'MRSA', Comment: 'MRSA-bärare, isoleringsrutin & basala hygienrutiner vid all vård.', ReasessmentRequired: true,
      ReasessmentComment: 'Ny odling tre månader efter avslutad behandling', ReasessmentDateTime: { value: '20251027' },
    });
    expect(mrsa?.Units.Unit[0]?.UnitName).toBe('23');
  });

  it('ignores the unknown SignalPriority, leaves out the empty ReasessmentComment, reads a given name given as elements', () => {
    expect(limitation?.AttentionSignal).not.toHaveProperty('SignalPriority');
    expect(limitation?.AttentionSignal?.UnstructuredType).toEqual({
      Heading: 'Vårdbegränsning', Type: 'WARNING', ReasessmentRequired: true, ReasessmentDateTime: { value: '20260120' }, Valid: true,
      Comment: 'Ej HLR enligt beslut 2025-01-20 av ansvarig läkare, efter samtal med patient & dotter. Se journalanteckning samma dag.',
    });
    expect(limitation?.Patient?.PatientName?.PatientGivenName).toEqual([{ qualifier: 'CL', value: 'Tolvan' }]);
  });

  it('maps the treatment from CDATA, a DiagnosisCode with a dot and dates of both lengths', () => {
    expect(warfarin?.AttentionSignal?.TreatmentAndConditionType).toEqual({
      Heading: 'Antikoagulantiabehandling',
      Comment: 'Antikoagulantia (warfarin) \u2013 PK(INR) mål 2,0\u20133,0; <blödningsrisk> vid ingrepp & punktion',
      ReasessmentRequired: false, TreatmentCode: 'B01AA03', TreatmentDateTime: { value: '20200110' },
      TreatmentDescription: 'Warfarin, dosering enligt AK-mottagningen', DiagnosisCode: 'I48.9',
      DiagnosisDateTime: { value: '20200108141500' }, DiagnosisDescription: 'Förmaksflimmer och förmaksfladder, ospecificerat',
    });
  });

  it('maps the inactive signal: a single Agent, no ReactionTypes ([]), xsi:nil as absent', () => {
    expect(plaster?.AttentionSignal).toMatchObject({
      SignalActive: false, SignalDeletionDate: { value: '20230512083000' },
      SignalDeletionComment: 'Ej verifierad vid lapptest 2023-05-10 \u2013 makulerad',
    });
    expect(plaster?.AttentionSignal?.HypersensitivityType).toEqual({
      Heading: 'Plåster (kolofonium)', Severity: 'Besvärande', Reaction: 'Kontakteksem', Certitude: 'Misstänkt',
      ReasessmentRequired: false, ReactionTypes: [], SignalATCCodes: { signalATCCode: [] }, Agent: ['Kolofonium'],
    });
  });

  it('sorts on time_created, the repeated autumn hour as its earlier instant, and filters inclusively', () => {
    const sorted = selectDocument('attentionsignals', answer, {}, ZONE);
    expect(sorted[0]?.AttentionSignalEHRExtract.map((s) => s.time_created?.value))
      .toEqual(['20191105142233', '20200114091500', '20230425110312', '20241027023000', '20250120160500']);
    const inRange = selectDocument('attentionsignals', answer, { from: '20241027023000', to: '20250120160500' }, ZONE);
    expect(inRange[0]?.AttentionSignalEHRExtract.map((s) => s.time_created?.value)).toEqual(['20241027023000', '20250120160500']);
    expect(inRange[0]?.XSDVersion).toEqual({ version: 2.1 });
    expect(selectDocument('attentionsignals', answer, { from: '20300101000000' }, ZONE)).toEqual([]);
  });
});

describe('issue 13: AttentionSignalEHRExtracts strictness', () => {
  it('refuses a repeated single member and a Severity given both ways', () => {
    expect(() => map(edit(base, '<Reaction>Anafylaxi</Reaction>', '<Reaction>Anafylaxi</Reaction><Reaction>Urtikaria</Reaction>')))
      .toThrow('repeated Reaction');
    expect(() => map(edit(base, '<Heading>Penicilliner</Heading>', '<Heading>Penicilliner</Heading><Severity>Lindrig</Severity>')))
      .toThrow('repeated Severity');
  });

  it('refuses a version that is not a number, and a boolean that is not true or false', () => {
    expect(() => map(edit(base, 'version="2.1"', 'version="2,1"'))).toThrow('bad number version');
    expect(() => map(edit(base, '<Valid>true</Valid>', '<Valid>ja</Valid>'))).toThrow('bad boolean Valid');
  });

  it('answers [] for an empty root, and refuses the retired major-1 document', () => {
    expect(map('<AttentionSignalEHRExtracts xmlns="urn:example:ehr:attentionsignal:2" version="2.1"/>')).toEqual([]);
    expect(() => map('<AttentionSignals xmlns="urn:example:ehr:attentionsignal:1"/>')).toThrow('unexpected root element');
  });
});
