import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, PATIENT, ZONE } from './fixtures.js';

const map = (xml: string) => mapDocument('journalnotes', xml, { zone: ZONE, expectedPatientId: PATIENT });

describe('JournalNoteRecords example', () => {
  const records = map(example('journalnotes.xml'));
  const [first, second] = records[0]?.JournalNoteEHRExtract ?? [];
  const status = first?.Note?.Records.Record[1];
  const archetypes = status?.OtherValue.ArchetypeRecords.ArchetypeRecord ?? [];

  it('maps both extracts and the XSD version', () => {
    expect(records).toHaveLength(1);
    expect(records[0]?.XSDVersion).toEqual({ version: 3.1 });
    expect(records[0]?.JournalNoteEHRExtract.map((e) => e.time_created.value)).toEqual(['20250303103012', '20241027023000']);
  });

  it('reads HCMContact with the upstream spelling HCMContacInternaltID', () => {
    expect(first?.HCMContact).toEqual({
      HCMContacInternaltID: '00771234',
      target_id: { extension: '000771234', root: '1.2.752.99999.1.3' },
      HCMContactBegin: { value: '20250303093000' },
      HCMContactType: 'Mottagningsbesök',
      HCMContactStatus: 'Avslutad',
      ContactPerformingUnit: 'Vårdcentralen Tolvstad',
    });
    expect(second?.HCMContact?.ContactPerformingUnit).toBe('23');
  });

  it('reads the prefixed ix:Note', () => {
    expect(first?.Note).toMatchObject({
      NoteId: { extension: '000345678', root: '1.2.752.99999.1.6' },
      NoteTemplateName: 'Besöksanteckning läkare',
      NoteActive: true,
      NoteTypeOfNote: 'Besöksanteckning',
      NoteDateTime: { value: '20250303093000' },
      NoteVersionDateTime: { value: '20250303102544' },
      NoteSignDateTime: { value: '20250303103012' },
    });
    expect(first?.Note?.Records.Record).toHaveLength(2);
  });

  it('maps records with repeated values and empty archetype wrappers', () => {
    expect(first?.Note?.Records.Record[0]).toEqual({
      Keyword: 'Anamnes',
      KeywordToolType: 'FRITEXT',
      Value: [{ JournalValueType: 'TEXT' }],
      OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } },
    });
    expect(status?.Value).toEqual([{ JournalValueType: 'ARCHETYPE' }, { JournalValueType: 'TEXT' }]);
  });

  it('nests ArchetypeRecord four levels deep, leaves as text', () => {
    expect(archetypes.map((a) => a.Name)).toEqual(['Blodtryck', 'Kroppstemperatur']);
    const history = archetypes[0]?.ArchetypeRecord[0];
    const events = history?.ArchetypeRecord[0];
    expect(archetypes[0]?.EventDateTime).toEqual({ startDateTime: { value: '20250303093500' }, endDateTime: { value: '20250303094000' } });
    expect(history?.Name).toBe('Historik');
    expect(history).not.toHaveProperty('EventDateTime');
    expect(events?.Name).toBe('Vid vila, sittande');
    expect(events?.ArchetypeRecord).toEqual([
      {
        ArchetypeId: 'at0004', Name: 'Systoliskt', DataType: 'DV_QUANTITY', Magnitude: '128', Unit: 'mm[Hg]', Range: '<140',
        EventDateTime: { startDateTime: { value: '20250303093500' }, endDateTime: { value: '20250303093500' } },
        ArchetypeRecord: [],
      },
      {
        ArchetypeId: 'at0005', Name: 'Diastoliskt', DataType: 'DV_QUANTITY', Magnitude: '084', Unit: 'mm[Hg]', Range: '<90',
        ArchetypeRecord: [],
      },
    ]);
    expect(archetypes[1]).toMatchObject({ Magnitude: '37.8', Range: '36.0-38.0', Unit: 'Cel', ArchetypeRecord: [] });
  });

  it('maps the patient, units and care providers', () => {
    expect(first?.Patient).toEqual({
      PatientID: { extension: PATIENT, root: '1.2.752.129.2.1.3.1' },
      PatientProtectedId: false,
      PatientInternalID: '00012345',
      PatientName: {
        PatientFamilyName: 'Tolvansson', PatientMiddleName: 'Öberg',
        PatientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }],
      },
    });
    expect(first?.CareUnit).toEqual({
      UnitID: { extension: 'SE2321000016-7P4K', root: '1.2.752.129.2.1.4.1' },
      UnitLocalID: { extension: '4711', root: '1.2.752.99999.1.4' },
    });
    const providers = first?.CareProviders.CareProvider ?? [];
    expect(providers.map((p) => [p.CareProviderInternalID, p.ProviderPosition?.CareProviderPositionName]))
      .toEqual([['00031415', 'Specialist i allmänmedicin'], ['00027182', 'Sjuksköterska']]);
    expect(providers[1]?.CareProviderUnit?.UnitLocalID).toEqual({ extension: '23', root: '1.2.752.99999.1.4' });
    const [unit, unit23] = first?.Units.Unit ?? [];
    expect(unit?.UnitAddresses.UnitAddress[0]?.UnitAddressComment).toBe('Hiss finns <till vänster> om entrén & parkering på gården');
    expect(unit?.UnitAddresses.UnitAddress[1]).not.toHaveProperty('UnitAddressComment');
    expect(unit?.UnitSecrecyGroups.Group).toEqual(['PRIMARVARD', 'BVC & MVC']);
    expect(unit?.EmailAddresses.Email).toEqual([{ EmailType: 'FUNKTION', EmailAddress: 'vc.tolvstad@example.se' }]);
    expect(unit?.HeadCareproviderUnitID).toEqual({ extension: 'SE2321000016-0001', root: '1.2.752.129.2.1.4.1' });
    expect(unit23).toEqual({
      UnitID: { extension: 'SE2321000016-A23X', root: '1.2.752.129.2.1.4.1' },
      UnitLocalID: { extension: '23', root: '1.2.752.99999.1.4' },
      UnitName: '23',
      HeadCareproviderUnitID: { extension: 'SE2321000016-0001', root: '1.2.752.129.2.1.4.1' },
      PhoneNumbers: { Phone: [] },
      EmailAddresses: { Email: [] },
      UnitAddresses: { UnitAddress: [] },
      UnitSecrecyGroups: { Group: [] },
      AccessZones: { AccessZoneID: [] },
    });
  });

  it('maps the unsigned second note with a single record and entity-decoded keyword', () => {
    expect(second?.Note).not.toHaveProperty('NoteSignDateTime');
    expect(second?.Note?.NoteActive).toBe(false);
    expect(second?.Note?.Records.Record).toEqual([{
      Keyword: 'Sömn & vila', KeywordToolType: 'FRITEXT', Value: [{ JournalValueType: 'TEXT' }],
      OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } },
    }]);
    expect(second?.CareProviders).toEqual({ CareProvider: [] });
    expect(second?.Units).toEqual({ Unit: [] });
    expect(second).not.toHaveProperty('AccessZoneUnit');
  });
});

describe('JournalNoteRecords nesting', () => {
  const nested = (levels: number): string => {
    const open = '<ArchetypeRecord><Name>n</Name>'.repeat(levels);
    const close = '</ArchetypeRecord>'.repeat(levels);
    return edit(example('journalnotes.xml'),
      '<Keyword>Anamnes</Keyword>',
      `<Keyword>Anamnes</Keyword><OtherValue><ArchetypeRecords>${open}${close}</ArchetypeRecords></OtherValue>`);
  };

  it('maps ArchetypeRecords nested as deep as the depth bound allows, single ones as arrays', () => {
    // 8 levels lead to ArchetypeRecords and each record holds a Name: 8 + 55 + 1 = 64, the bound.
    const records = map(nested(55));
    let level = records[0]?.JournalNoteEHRExtract[0]?.Note?.Records.Record[0]?.OtherValue.ArchetypeRecords.ArchetypeRecord;
    let depth = 0;
    while (level && level.length === 1) {
      depth += 1;
      level = level[0]?.ArchetypeRecord;
    }
    expect(depth).toBe(55);
    expect(level).toEqual([]);
  });

  it('refuses nesting one level deeper than the bound', () => {
    expect(() => map(nested(56))).toThrow('not parseable XML');
  });
});
