import { describe, expect, it } from 'vitest';
import { edit, example, mapExample, PATIENT } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('journalnotes');

const EMPTY_RECORD_PARTS = { Unit: [], Range: [], KeywordSecrecyLevels: { SecrecyLevel: [] }, OtherValue: { ArchetypeRecords: { ArchetypeRecord: [] } } };

describe('JournalNoteRecords example', () => {
  const records = map(example('journalnotes.xml'));
  const [first] = records[0]?.JournalNoteEHRExtract ?? [];
  const [second] = records[1]?.JournalNoteEHRExtract ?? [];
  const notes = first?.Note?.Records.Record ?? [];
  const status = notes[2];
  const archetypes = status?.OtherValue.ArchetypeRecords.ArchetypeRecord ?? [];

  it('maps both records (minor 3.1 and 3.0) with their extracts and XSD versions', () => {
    expect(records.map((r) => r.XSDVersion)).toEqual([{ version: 3.1 }, { version: 3.0 }]);
    expect(records.map((r) => r.JournalNoteEHRExtract.map((e) => e.time_created.value))).toEqual([['20250303103012'], ['20241027023000']]);
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

  it('reads the prefixed ix:Note with its secrecy levels', () => {
    expect(first?.Note).toMatchObject({
      NoteId: { extension: '000345678', root: '1.2.752.99999.1.6' },
      NoteTemplateName: 'Besöksanteckning läkare',
      NoteActive: true,
      NoteTypeOfNote: 'Besöksanteckning',
      NoteDateTime: { value: '20250303093000' },
      NoteVersionDateTime: { value: '20250303102544' },
      NoteSignDateTime: { value: '20250303103012' },
      NoteSecrecyLevels: { SecrecyLevel: ['Normal'] },
    });
    expect(first?.Note).not.toHaveProperty('NoteInactiveReason');
    expect(notes.map((r) => r.Keyword)).toEqual(['Anamnes', 'Social anamnes', 'Status', 'CRP', 'Bedömning']);
  });

  it('issue 13: carries each 3.1 value\'s text in $self, inner line breaks kept and the ends trimmed', () => {
    expect(notes[0]).toEqual({
      Keyword: 'Anamnes', KeywordToolType: 'TextTool', ...EMPTY_RECORD_PARTS,
      Value: [{
        JournalValueType: 'Text',
        $self: 'Söker för hosta sedan två veckor, sedan tre dagar även feber upp till 38,5 \u00b0C.\n'
          + 'Ingen andnöd i vila, lätt andfådd i trappor. Ingen bröstsmärta.\n'
          + 'Behandlas med warfarin (AK-mottagningen), PK(INR) 2,4 i förra veckan & stabilt.',
      }],
    });
    expect(notes[1]).toEqual({
      Keyword: 'Social anamnes', KeywordToolType: 'TextTool', ...EMPTY_RECORD_PARTS,
      Value: [{ JournalValueType: 'Text', $self: 'Bor ensam i lägenhet, hemtjänst två gånger dagligen. Dottern Märta hjälper till med inköp.' }],
      KeywordSecrecyLevels: { SecrecyLevel: ['Känslig uppgift'] },
    });
  });

  it('issue 13: a value with the attribute only has no $self; CDATA text is kept as written', () => {
    expect(status?.Value).toEqual([
      { JournalValueType: 'Other' },
      {
        JournalValueType: 'Text',
        $self: 'AT: opåverkad, pratar hela meningar.\nCor: regelbunden rytm, inga blåsljud.\nPulm: ronki bilateralt, inga rassel. SaO2 95 % <i vila> & utan syrgas.',
      },
    ]);
  });

  it('issue 13: a numeric value stays text, with its Unit and Range', () => {
    expect(notes[3]).toEqual({
      Keyword: 'CRP', KeywordToolType: 'NumericTool', ...EMPTY_RECORD_PARTS,
      Value: [{ JournalValueType: 'Numeric', $self: '12' }], Unit: ['mg/L'], Range: ['<5'],
    });
  });

  it('issue 13: a Record nests one Record that nests another (no wrapper, not an array)', () => {
    expect(notes[4]?.Record).toEqual({
      Keyword: 'Diagnos', KeywordToolType: 'ClinicalCodingTool', ...EMPTY_RECORD_PARTS,
      Value: [{ JournalValueType: 'Diagnosis', $self: 'J20.9 Akut bronkit, ospecificerad' }],
      Record: {
        Keyword: 'Åtgärd', KeywordToolType: 'TextTool', ...EMPTY_RECORD_PARTS,
        Value: [{ JournalValueType: 'Text', $self: 'Ingen antibiotika, hostdämpande vid behov. Återbesök om feber kvarstår efter tre dagar eller vid andnöd.' }],
      },
    });
    expect(notes[4]?.Record?.Record).not.toHaveProperty('Record');
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

  it('maps the patient, units and care providers; AccessZoneID as an Identifier', () => {
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
    expect(unit?.AccessZones.AccessZoneID).toEqual([{ extension: '00000017', root: '1.2.752.99999.1.7' }]);
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

  it('issue 13: maps the 3.0 note: the child JournalValueType without text, the inactive reason, a text AccessZoneID', () => {
    expect(second?.Note).not.toHaveProperty('NoteSignDateTime');
    expect(second?.Note?.NoteActive).toBe(false);
    expect(second?.Note?.NoteInactiveReason).toBe('Skriven på fel vårdtillfälle \u2013 ersatt av ny anteckning');
    expect(second?.Note?.NoteSecrecyLevels).toEqual({ SecrecyLevel: [] });
    expect(second?.Note?.Records.Record).toEqual([{
      Keyword: 'Sömn & vila', KeywordToolType: 'TextTool', Value: [{ JournalValueType: 'Text' }], ...EMPTY_RECORD_PARTS,
    }]);
    expect(second?.Units.Unit[0]?.AccessZones.AccessZoneID).toEqual([{ extension: '00000023', root: '1.2.752.99999.1.7' }]);
    expect(second?.CareProviders).toEqual({ CareProvider: [] });
    expect(second).not.toHaveProperty('AccessZoneUnit');
  });

  it('issue 13: takes either form of a value in one document, and refuses a type given both ways', () => {
    const mixed = edit(example('journalnotes.xml'), '<Value JournalValueType="Numeric">12</Value>',
      '<Value><JournalValueType>Numeric</JournalValueType></Value>');
    expect(map(mixed)[0]?.JournalNoteEHRExtract[0]?.Note?.Records.Record[3]?.Value).toEqual([{ JournalValueType: 'Numeric' }]);
    const both = edit(example('journalnotes.xml'), '<Value JournalValueType="Numeric">12</Value>',
      '<Value JournalValueType="Numeric"><JournalValueType>Text</JournalValueType>12</Value>');
    expect(() => map(both)).toThrow('repeated JournalValueType');
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
