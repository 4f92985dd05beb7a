import { describe, expect, it } from 'vitest';
import { edit, example, mapExample, PATIENT } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('medications');

describe('PrescriptionRecords example', () => {
  const records = map(example('medications.xml'));
  const [first, second] = records[0]?.PrescriptionEHRExtract ?? [];
  const rx = first?.Prescription;
  const dosage = rx?.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;

  it('keeps both extracts, the prefixed one too, in document order', () => {
    expect(records).toHaveLength(1);
    expect(records[0]?.XSDVersion).toEqual({ version: 2.7 });
    expect(records[0]?.PrescriptionEHRExtract.map((e) => e.time_created.value)).toEqual(['20250303101522', '20250112154405']);
    expect(second?.ehr_id).toEqual({ extension: 'e4a90b3d-1f6c-4e2a-b7d8-2c5f9a1e6b44', root: '1.2.752.99999.1.1' });
  });

  it('maps the prescription header with booleans and ids with leading zeros', () => {
    expect(rx?.MedicationTreatmentId).toEqual({ extension: '00098765', root: '1.2.752.99999.1.5' });
    expect(rx?.rc_id).toEqual({ extension: '000770011', root: '1.2.752.99999.1.2' });
    expect(rx?.MedicationTreatmentStatusDetail).toEqual({ EffectiveDateTime: { value: '20250303101522' }, TreatmentStatus: 'ACTIVE' });
    expect([rx?.ReplacedByLatest, rx?.AccordingToSchedule, rx?.MedicationActive]).toEqual([false, true, true]);
    expect(rx?.PrescriptionStartDateTime).toEqual({ value: '20250303000000' });
    expect(rx?.MedicationChoice).toEqual({ codeSystem: '1.2.752.99999.2.1', displayName: { value: 'Utbyte tillåtet' } });
    expect(rx?.PrescriptionReasonText).toBe('Smärta & feber efter tandextraktion');
    expect(rx?.TreatmentGoal).toBe('Smärtfrihet');
  });

  it('keeps strengths and codes that look numeric as text', () => {
    expect(rx?.MainProductTreatment).toEqual({
      PrescriptionProductStrengthNumeric: '500',
      PrescriptionProductStrengthNumericUnit: 'mg',
      PrescriptionProduct_AtcCode: { codeSystem: '2.16.840.1.113883.6.73', displayName: { value: 'N02BE01 Paracetamol' } },
      PrescriptionProductTradeName: 'Febrilon',
      PrescriptionProductNplID: { extension: '20091119100114', root: '1.2.752.129.2.1.5.1' },
      PrescriptionProductDrugFormTextSv: 'Filmdragerad tablett',
    });
    expect(second?.Prescription?.MainProductTreatment?.PrescriptionProductStrengthNumeric).toBe('2,5');
    expect(rx?.RouteDetail).toEqual({ routeCode: '20053000', name: 'Oral användning', abbreviation: 'PO', routeLicensed: true });
    expect(rx?.PrescriptionDetails.map((d) => [d.Type, d.ProductInformation?.PrescriptionProductTradeName]))
      .toEqual([['HUVUDPRODUKT', 'Febrilon'], ['UTBYTESPRODUKT', 'Paracetamol Exempla']]);
  });

  it('types the dosage integers and booleans, and keeps the empty ConditionalText out', () => {
    expect(rx?.PrescriptionDosages?.WhenNeeded).toBe(false);
    expect(dosage).toMatchObject({
      WholeWhenNeeded: false, Continuous: false, Conditional: false, ExtraDose: false,
      NoOfAdminTimes: 3, DosageOrder: 1, RepetitionLength: 1, Rate: '3 ggr/dygn',
      DosageText: '1 tablett 3 gånger dagligen i 7 dagar', DosageShortText: '1x3 i 7 d',
      DosageType: 'DAGLIG', DoseDistributionType: 'FASTA_TIDER',
      DoseEnd: { DoseEndType: 'DURATION', EndDuration: { length: '7', TimeType: 'DAY' }, EndDate: { value: '20250309235959' } },
      DoseStart: { DoseStartType: 'DATE', StartDate: { value: '20250303000000' } },
    });
    expect(dosage).not.toHaveProperty('ConditionalText');
    expect(dosage?.DoseInstance).toHaveLength(3);
    expect(dosage?.DoseInstance[2]).toEqual({
      MaxQty: '2', MinQty: '1', Type: 'st', DaysFromDosageStart: 0, DoseOrder: 3, OneOff: true, Conditional: false,
      DoseTime: { value: '20250303200000' }, OneOffTime: { value: '20250303200000' },
    });
  });

  it('reads HCMContact, the unit references and the patient with PatientId', () => {
    expect(first?.HCMContact).toEqual({
      ContactType: 'BESOK', ContactStatus: 'ARRIVED', ContactBegin: { value: '20250303093000' },
      ContactEnd: { value: '20250303101500' }, rc_id: { extension: '000770002', root: '1.2.752.99999.1.3' },
    });
    expect(first?.CreationUnit).toEqual({
      UnitID: { extension: 'SE2321000016-TND1', root: '1.2.752.129.2.1.4.1' },
      UnitInternalID: '00000815',
      UnitLocalID: { extension: '815', root: '1.2.752.99999.1.4' },
    });
    expect(first?.Patient).toEqual({
      PatientNameData: {
        PatientNames: { Name: ['Tolvansson, Tolvan Nils-Åke'] },
        PatientFamilyName: 'Tolvansson',
        PatientMiddleName: 'Öberg',
        PatientGivenName: ['Tolvan', 'Nils-Åke'],
      },
      PatientId: { extension: PATIENT, root: '1.2.752.129.2.1.3.1' },
      PatientProtectedId: false,
    });
  });

  it('maps CareProviders.CareProviders.CareProvider with its doubled name', () => {
    const groups = first?.CareProviders.CareProviders ?? [];
    expect(groups).toHaveLength(1);
    expect(groups[0]?.CareProvider.map((c) => c.CareProviderName)).toEqual(['Åsa Ärlig', 'Örjan Åberg']);
    expect(groups[0]?.CareProvider[1]).toEqual({
      CareProviderUnit: {
        UnitID: { extension: 'SE2321000016-TND1', root: '1.2.752.129.2.1.4.1' },
        UnitInternalID: '00000815',
        UnitLocalID: { extension: '815', root: '1.2.752.99999.1.4' },
      },
      CareProviderType: 'REGISTRERARE',
      CareProviderName: 'Örjan Åberg',
      CareProviderID: { extension: 'SE2321000016-T9B4', root: '1.2.752.129.2.1.4.1' },
      CareProviderPosition: {
        CareProviderPositionID: { extension: 'TSK', root: '1.2.752.99999.1.7' },
        CareProviderPositionName: 'Tandsköterska',
      },
    });
  });

  it('maps units with their wrappers, text arrays with zeros, and an empty wrapper', () => {
    const [dental, primary] = first?.Units.UnitData ?? [];
    expect(dental?.PhoneNumbers.PhoneData).toEqual([
      { PhoneType: 'EXPEDITION', PhoneNumber: '08-46500420', PhoneComment: 'Vardagar 08.00\u201316.00' },
      { PhoneType: 'FAX', PhoneNumber: '08-46500421' },
    ]);
    expect(dental?.EmailAddresses.EmailData).toEqual([
      { EmailType: 'FUNKTION', EmailAddress: 'tandvarden@example.se', EmailComment: 'Ej för akuta ärenden' },
    ]);
    expect(dental?.UnitAddresses.UnitAddressData[0]?.UnitAddressCounty).toBe('Stockholms län');
    // Issue 13: the text form is mapped to an Identifier with the local access-zone root.
    expect(dental?.AccessZones.AccessZoneID).toEqual([
      { extension: '00000017', root: '1.2.752.99999.1.7' }, { extension: '00000042', root: '1.2.752.99999.1.7' },
    ]);
    expect(dental?.UnitSecrecyGroups.Group).toEqual(['TANDVARD']);
    expect(dental?.UnitHeadCareProviderUnitID).toBe('SE2321000016-0001');
    expect(primary?.UnitSecrecyGroups).toEqual({ Group: [] });
    expect(primary?.PhoneNumbers).toEqual({ PhoneData: [] });
    expect(primary?.AccessZones.AccessZoneID).toEqual([{ extension: '00000017', root: '1.2.752.99999.1.7' }]);
  });

  it('leaves out the xsi:nil TreatmentGoal and gives the second extract empty wrappers', () => {
    expect(second?.Prescription).not.toHaveProperty('TreatmentGoal');
    expect(second?.Prescription?.PrescriptionDosages?.WhenNeeded).toBe(true);
    expect(second?.Prescription?.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage?.DoseInstance[0]).not.toHaveProperty('DoseTime');
    expect(second).not.toHaveProperty('HCMContact');
    expect(second?.CareProviders).toEqual({ CareProviders: [] });
    expect(second?.Units).toEqual({ UnitData: [] });
    expect(second?.Patient?.PatientNameData).toEqual({ PatientFamilyName: 'Tolvansson', PatientGivenName: ['Tolvan'] });
  });
});

describe('PrescriptionRecords strict conversions', () => {
  const base = example('medications.xml');

  it('refuses an integer leaf that is not an integer', () => {
    expect(() => map(edit(base, '<NoOfAdminTimes>3</NoOfAdminTimes>', '<NoOfAdminTimes>3.0</NoOfAdminTimes>')))
      .toThrow('bad integer NoOfAdminTimes');
  });

  it('refuses a boolean leaf spelled otherwise than true/false', () => {
    expect(() => map(edit(base, '<MedicationActive>true</MedicationActive>', '<MedicationActive>TRUE</MedicationActive>')))
      .toThrow('bad boolean MedicationActive');
  });
});
