/**
 * Issue 23: the diagnoses mirror document (DiagnosisEHRExtracts) against the vendor's diagnosis v2
 * layout, field by field, every trap the example lists included: nested diagnoses to depth three,
 * actions in a diagnosis and beside the diagnoses, members as attributes, a prefixed root.
 */
import { describe, expect, it } from 'vitest';
import { MalformedDocumentError } from '../../adapters/ehr-xml/index.js';
import { selectDocument } from '../../../test/support/document-reads.js';
import { edit, example, HSA, ii, mapExample, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('diagnoses');
const base = example('diagnoses.xml');
const RC = '1.2.752.99999.1.2';
const KVA = '1.2.752.116.1.3.2.1.4';

describe('issue 23: DiagnosisEHRExtracts example', () => {
  const answer = map(base);
  const extracts = answer[0]?.diagnosisEHRExtract ?? [];
  const [visit, fracture, phone, refuted, diabetes] = extracts;

  it('answers one element holding the five notes in document order, under a prefixed root', () => {
    expect(answer).toHaveLength(1);
    expect(extracts.map((e) => e.timeCreated?.value)).toEqual(['20250203101500', '20251026021500', '20251118091500', '20250330030100', '20250330020500']);
  });

  it('maps the first note\'s metadata: wrappers of secrecy levels, an 8-digit note date, a boolean', () => {
    expect(visit?.diagnosisMetaData).toMatchObject({
      NoteId: ii('TOLV:RcId:JournalNote:000310077', RC),
      JournalNoteReferenceId: ii('TOLV:RcId:JournalNote:000310070', RC),
      DiagnosisVersionDateTime: { value: '20250203103000' },
      DiagnosisTemplateName: 'Besöksanteckning läkare',
      DiagnosisTemplateSecrecyLevels: { secrecyLevel: ['Normal'] },
      DiagnosisSignDateTime: { value: '20250203112000' },
      DiagnosisSecrecyLevels: { secrecyLevel: ['Normal'] },
      DiagnosisActive: true,
    });
    expect(visit?.hCMContact?.contactSecrecyLevels).toEqual({ secrecyLevel: ['Normal'] });
    expect(visit?.accessZoneUnit).toEqual({ unitID: ii('SE2321000016-7P4K', HSA) });
    expect(visit?.careProviders.careProvider).toHaveLength(1);
    expect(visit?.units.unit[0]).toMatchObject({ unitInternalID: '0004711', accessZones: { accessZoneID: [ii('00000017', '1.2.752.99999.1.7')] } });
  });

  it('reads a diagnosis within a diagnosis within a diagnosis, and actions inside a diagnosis and beside the diagnoses', () => {
    expect(fracture?.diagnoses).toEqual({
      diagnosis: [{
        rcId: ii('TOLV:RcId:Diagnosis:000880002', RC),
        diagnosisCodeType: 'ICD-10-SE',
        diagnosisTerminology: '1.2.752.116.1.1.1.1.3',
        diagnosisCode: 'S52.5',
        diagnosisDescription: 'Fraktur på nedre änden av radius',
        diagnosisType: 'Huvuddiagnos',
        diagnosisChronic: false,
        diagnosis: [{
          rcId: ii('TOLV:RcId:Diagnosis:000880003', RC),
          diagnosisCodeType: 'ICD-10-SE',
          diagnosisCode: 'W01.9',
          diagnosisDescription: 'Fall i samma plan – halkat på is',
          diagnosisType: 'Yttre orsak',
          diagnosis: [{
            diagnosisCodeType: 'ICD-10-SE', diagnosisCode: 'U98.8', diagnosisType: 'Aktivitet',
            diagnosisDescription: 'Annan specificerad aktivitet: promenad', diagnosis: [], action: [],
          }],
          action: [],
        }],
        action: [{
          rcId: ii('TOLV:RcId:Action:000990001', RC), actionTerminology: KVA, actionCode: 'NCJ49',
          actionDescription: 'Sluten reposition av fraktur på distala radius', actionSurgeryDateTime: { value: '20251026043000' },
        }],
      }],
      // Text and CDATA in one element: the spaces beside the CDATA kept.
      action: [{ actionCode: 'QAB10', actionTerminology: KVA, actionDescription: 'Gipsbehandling <underarm> vänster sida' }],
    });
  });

  it('reads metadata given as attributes, xsi:nil and an empty element as absent, an inactive diagnosis with its reason', () => {
    expect(fracture?.diagnosisMetaData).toEqual({
      NoteId: ii('TOLV:RcId:JournalNote:000390415', RC), DiagnosisTemplateName: 'Akutanteckning', DiagnosisTypeOfNote: 'Akutbesök',
      DiagnosisActive: true, DiagnosisSignDateTime: { value: '20251026061500' },
      DiagnosisTemplateSecrecyLevels: { secrecyLevel: [] }, DiagnosisSecrecyLevels: { secrecyLevel: [] },
    });
    expect(fracture?.hCMContact).toMatchObject({ hCMContactType: 'Akutbesök', hCMContactStatus: 'Avslutad', contactSecrecyLevels: { secrecyLevel: [] } });
    expect(phone?.diagnosisMetaData?.DiagnosisTypeOfNote).toBeUndefined();
    expect(phone?.diagnosisMetaData?.DiagnosisSignDateTime).toBeUndefined();
    expect(refuted?.diagnosisMetaData).toMatchObject({ DiagnosisActive: false, DiagnosisInactiveReason: 'Felregistrerad – fel patient & fel vårdtillfälle' });
  });

  it('keeps chronic as a boolean from an attribute or an element, two secrecy levels, and CDATA text whole', () => {
    const [main, smoking] = diabetes?.diagnoses?.diagnosis ?? [];
    expect(main?.diagnosisChronic).toBe(true);
    expect(main?.diagnosis[0]).toMatchObject({ diagnosisCode: 'E78.0', diagnosisDescription: 'Ren hyperkolesterolemi <familjär>', diagnosisChronic: true });
    expect(smoking?.diagnosisChronic).toBe(false);
    expect(diabetes?.diagnosisMetaData?.DiagnosisSecrecyLevels.secrecyLevel).toEqual(['Normal', 'Känslig']);
    expect(diabetes?.diagnosisMetaData?.DiagnosisNoteDate).toEqual({ value: '20250330' });
  });

  it('sorts on timeCreated as instants: the spring-gap note after 03:01, the repeated autumn hour as its earlier instant', () => {
    const sorted = selectDocument('diagnoses', answer, {}, ZONE)[0]?.diagnosisEHRExtract ?? [];
    expect(sorted.map((e) => e.timeCreated?.value)).toEqual(['20250203101500', '20250330030100', '20250330020500', '20251026021500', '20251118091500']);
  });

  it('refuses a boolean that is not one, and a document naming another patient', () => {
    expect(() => map(edit(base, '<diagnosisChronic>false</diagnosisChronic>', '<diagnosisChronic>nej</diagnosisChronic>'))).toThrow(MalformedDocumentError);
    expect(() => map(edit(base, '<timeCreated value="20251118091500"/>',
      '<timeCreated value="20251118091500"/><patient><patientID extension="198112189876" root="1.2.752.129.2.1.3.1"/></patient>'))).toThrow(MalformedDocumentError);
  });
});
