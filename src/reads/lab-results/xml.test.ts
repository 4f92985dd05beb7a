/**
 * Issue 23: the lab-results mirror document (ChemistryReportEHRExtracts) against the vendor's
 * chemistry lab results v2 layout, field by field, every trap the example lists included.
 */
import { describe, expect, it } from 'vitest';
import { MalformedDocumentError } from '../../adapters/ehr-xml/index.js';
import { selectDocument } from '../../../test/support/document-reads.js';
import { edit, example, HSA, ii, mapExample, TOLVAN, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('labresults');
const base = example('labresults.xml');
const LOCAL = '1.2.752.99999.1.4';
const RC = '1.2.752.99999.1.2';

describe('issue 23: ChemistryReportEHRExtracts example', () => {
  const answer = map(base);
  const extracts = answer[0]?.chemistryReportEHRExtract ?? [];
  const [fasting, spring, culture, crp, autumn] = extracts;

  it('answers one element holding the five reports in document order, the prefixed one among them', () => {
    expect(answer).toHaveLength(1);
    expect(extracts.map((e) => e.report?.reportId)).toEqual(['00045001', '00045003', '00045006', '00045004', '00045005']);
  });

  it('maps the first report field by field: results, ranges and flags stay text, multi-line text and CDATA kept', () => {
    expect(fasting?.ehrId).toEqual(ii('TOLV:EhrId:191212121212', '1.2.752.99999.1.1'));
    // identifierName and displayable beside root and extension; displayable a boolean.
    expect(fasting?.ehrSystem).toEqual({ extension: 'SE2321000016-1SYS', root: HSA, identifierName: 'COSMIC', displayable: false });
    expect(fasting?.timeCreated).toEqual({ value: '20250114083000' });
    expect(fasting?.report).toEqual({
      rcId: ii('TOLV:RcId:ChemistryReport:00045001', RC),
      reportId: '00045001',
      reportStatus: 'CO',
      reportDateTime: { value: '20250114113000' },
      reportVersionDateTime: { value: '20250114113512' },
      secrecyClassification: 'Normal',
      reportCommentary: 'Fastande prov.\nTaget kl. 08.05 på vårdcentralen.',
      testResult: [
        {
          rcId: ii('TOLV:RcId:TestResult:000101', RC), testId: '000101', testName: 'P-Glukos', IUPAC: 'NPU02192',
          result: '5,4', unit: 'mmol/L', range: '4,0–6,0', pathological: '0', status: 'Slutsvar',
          attestDateTime: { value: '20250114113000' }, attestingCareProviderId: ii('SE2321000016-KK9A', HSA),
        },
        {
          rcId: ii('TOLV:RcId:TestResult:000102', RC), testId: '000102', testName: 'B-Hemoglobin (Hb)', IUPAC: 'NPU28309',
          result: '128', unit: 'g/L', range: '117–153', pathological: '0', status: 'Slutsvar',
          attestDateTime: { value: '20250114113000' }, attestingCareProviderId: ii('SE2321000016-KK9A', HSA),
        },
        {
          rcId: ii('TOLV:RcId:TestResult:000103', RC), testId: '000103', testName: 'P-Kreatinin', IUPAC: 'NPU04998',
          result: '112', unit: 'µmol/L', range: '45–90', pathological: '1', status: 'Slutsvar',
          // Text and CDATA in one element: every space beside the CDATA kept (docs/contract.md#reads).
          testCommentary: 'eGFR beräknat: <60 mL/min/1,73 m² – kontrollera om 3 mån',
          attestDateTime: { value: '20250114113000' }, attestingCareProviderId: ii('SE2321000016-KK9A', HSA),
        },
      ],
    });
  });

  it('maps the request: collectionDateTime a plain string, clinical information as elements and as attributes, an empty member absent, an unknown attribute ignored', () => {
    expect(fasting?.request).toEqual({
      rcId: ii('TOLV:RcId:Request:00091001', RC),
      requestId: '00091001',
      requestDateTime: { value: '20250110140000' },
      collectionDateTime: '20250114080500',
      priority: 'Rutin',
      collectorsCommentary: 'Venös provtagning, fastande sedan kl. 22',
      clinicalInformation: [
        { information: 'Frågeställning', reply: 'Diabeteskontroll & trötthet sedan jul' },
        { information: 'Aktuella läkemedel', reply: 'Metformin 500 mg x 2' },
      ],
    });
    expect(Object.keys(fasting ?? {})).not.toContain('labOrderChannel');
  });

  it('maps the patient, the single attesting care provider, care provider and unit as arrays, and the units beside them', () => {
    expect(fasting?.patient).toEqual({
      patientID: TOLVAN, patientInternalID: '00012345', patientProtectedId: false,
      patientSecrecyGroups: { group: ['PRIMARVARD'] },
      patientName: {
        patientFamilyName: 'Tolvansson', patientMiddleName: 'Öberg',
        patientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }],
      },
    });
    expect(fasting?.attestingCareProviders.attestingCareProvider).toEqual([{
      careProviderID: ii('SE2321000016-KK9A', HSA), careProviderName: 'Karin Kemist', careProviderType: 'Attester',
      providerPosition: { careProviderPositionID: ii('BMA', '1.2.752.99999.1.7'), careProviderPositionName: 'Biomedicinsk analytiker' },
    }]);
    expect(fasting?.careProviders.careProvider).toHaveLength(1);
    expect(fasting?.units.unit).toHaveLength(1);
    expect(fasting?.units.unit[0]).toMatchObject({
      unitID: ii('SE2321000016-KK17', HSA), unitLocalID: ii('0817', LOCAL), unitInternalID: '0000817',
      accessZones: { accessZoneID: [ii('00000017', '1.2.752.99999.1.7')] },
      phoneNumbers: { phone: [{ phoneType: 'PROVSVAR', phoneNumber: '08-46500817', phoneComment: 'Vardagar 08.00–16.00' }] },
      emailAddresses: { Email: [{ EmailType: 'FUNKTION', EmailAddress: 'klinkem.tolvstad@example.se' }] },
    });
    expect(fasting?.accessZoneUnit).toEqual({ unitID: ii('SE2321000016-7P4K', HSA) });
    expect(fasting?.performingUnit).toEqual({ unitID: ii('SE2321000016-KK17', HSA), unitLocalID: ii('0817', LOCAL) });
  });

  it('reads hCMContact.contactSecrecyLevels as the repeated element itself, given as an attribute or a child', () => {
    expect(fasting?.hCMContact?.contactSecrecyLevels).toEqual([{ secrecyLevel: 'Normal' }]);
    expect(autumn?.hCMContact?.contactSecrecyLevels).toEqual([{ secrecyLevel: 'Normal' }, { secrecyLevel: 'Känslig' }]);
  });

  it('reads report and result members given as attributes, xsi:nil as absent, and the prefixed members', () => {
    expect(spring?.report).toMatchObject({ reportId: '00045003', reportStatus: 'CO' });
    expect(spring?.report?.reportCommentary).toBeUndefined();
    expect(spring?.report?.testResult.map((t) => [t.testName, t.result, t.unit, t.range, t.pathological])).toEqual([
      ['B-Leukocyter', '11,2', '×10⁹/L', '3,5–8,8', '1'],
      ['B-Trombocyter', '245', '×10⁹/L', '145–348', '0'],
    ]);
    expect(spring?.request).toMatchObject({ requestId: '00091003', priority: 'Akut', collectionDateTime: '20250330022000' });
    expect(spring?.patient).toMatchObject({ patientID: TOLVAN, patientInternalID: '00012345', patientProtectedId: false });
    expect(spring?.hCMContact).toMatchObject({ hCMContactType: 'Akutbesök', hCMContactStatus: 'Pågående' });
  });

  it('keeps a preliminary result without attestDateTime, and text escaped or in CDATA as written', () => {
    expect(culture?.report?.testResult.map((t) => t.attestDateTime)).toEqual([undefined, { value: '20251120113000' }]);
    expect(culture?.report?.testResult[0]?.result).toBe('Växt av gramnegativa stavar >100 000 CFU/mL');
    expect(crp?.report?.testResult[0]).toMatchObject({
      result: '<5', range: '<5', testCommentary: 'Referensintervall för vuxna: <5 mg/L (analyserat på akutlab)',
    });
  });

  it('sorts on timeCreated as instants: the spring-gap report after 03:10, the repeated autumn hour as its earlier instant', () => {
    const sorted = selectDocument('labresults', answer, {}, ZONE)[0]?.chemistryReportEHRExtract ?? [];
    expect(sorted.map((e) => e.report?.reportId)).toEqual(['00045001', '00045004', '00045003', '00045005', '00045006']);
    const autumnHour = selectDocument('labresults', answer, { from: '20251026020000', to: '20251026025959' }, ZONE);
    expect(autumnHour[0]?.chemistryReportEHRExtract.map((e) => e.report?.reportId)).toEqual(['00045005']);
  });

  it('refuses a document naming another patient, a bad time value and a result given twice', () => {
    expect(() => map(edit(base, '<patientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>00012345</patientInternalID>\n      <patientProtectedId>',
      '<patientID extension="198112189876" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>00012345</patientInternalID>\n      <patientProtectedId>'))).toThrow(MalformedDocumentError);
    expect(() => map(edit(base, '<timeCreated value="20251120101500"/>', '<timeCreated value="20251320101500"/>'))).toThrow(MalformedDocumentError);
    expect(() => map(edit(base, '<result>Positiv</result>', '<result>Positiv</result><result>Negativ</result>'))).toThrow(MalformedDocumentError);
  });
});
