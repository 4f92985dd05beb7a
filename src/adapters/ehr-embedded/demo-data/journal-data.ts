import type { StaffKey } from './units.js';

/** What the demo journal notes say; journalnotes.ts turns them into JournalNoteRecords. */

export interface ArchetypeSpec {
  id: string;
  name: string;
  /** EventDateTime as minutes after the note time: [start, end]. */
  at?: readonly [number, number];
  /** Leaf values (all text upstream, however numeric): DataType, Magnitude, Unit, Range. */
  value?: readonly [dataType: string, magnitude: string, unit: string, range?: string];
  children?: readonly ArchetypeSpec[];
}

export interface RecordSpec {
  keyword: string;
  tool: string;
  values: readonly string[];
  archetypes?: readonly ArchetypeSpec[];
}

export interface NoteSpec {
  noteId: string;
  /** The contact (plan number n) the note was written at. */
  contact: number;
  /** Local `hhmm` on the contact's day; absent = the contact's start. */
  at?: string;
  template: string;
  typeOfNote: string;
  active: boolean;
  /** Minutes from note time to its last version and to its signature; unsigned without `signAfter`. */
  versionAfter: number;
  signAfter?: number;
  staff: readonly StaffKey[];
  records: readonly RecordSpec[];
}

const text = (keyword: string): RecordSpec => ({ keyword, tool: 'FRITEXT', values: ['TEXT'] });
const q = (id: string, name: string, magnitude: string, unit: string, range?: string): ArchetypeSpec =>
  ({ id, name, value: ['DV_QUANTITY', magnitude, unit, range] });

const BP = 'openEHR-EHR-OBSERVATION.blood_pressure.v2';
function bloodPressure(systolic: string, diastolic: string): ArchetypeSpec {
  // Four levels deep, leaves directly inside their parent, like the upstream example.
  return { id: BP, name: 'Blodtryck', at: [5, 10], children: [{
    id: `${BP}/data`, name: 'Historik', children: [{
      id: `${BP}/data/events`, name: 'Vid vila, sittande', at: [5, 7], children: [
        { ...q('at0004', 'Systoliskt', systolic, 'mm[Hg]', '<140'), at: [5, 5] },
        q('at0005', 'Diastoliskt', diastolic, 'mm[Hg]', '<90'),
      ] }] }] };
}

const temperature = (value: string): ArchetypeSpec =>
  ({ ...q('openEHR-EHR-OBSERVATION.body_temperature.v2', 'Kroppstemperatur', value, 'Cel', '36.0-38.0'), at: [12, 12] });

const status = (...archetypes: ArchetypeSpec[]): RecordSpec =>
  ({ keyword: 'Status', tool: 'ARKETYP', values: ['ARCHETYPE', 'TEXT'], archetypes });

export const NOTES: Readonly<Record<string, readonly NoteSpec[]>> = {
  '191212121212': [
    { noteId: '000345678', contact: 51, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 55, signAfter: 60, staff: ['doris', 'sven'],
      records: [text('Anamnes'), status(bloodPressure('128', '084'), temperature('37.8')), text('Bedömning & åtgärd')] },
    { noteId: '000301002', contact: 55, template: 'Tandvårdsanteckning', typeOfNote: 'Behandling',
      active: true, versionAfter: 70, signAfter: 75, staff: ['asa'], records: [text('Åtgärd'), text('Eftervård')] },
    { noteId: '000351210', contact: 12, template: 'Distanskontakt läkare', typeOfNote: 'Distanskontakt',
      active: true, versionAfter: 25, signAfter: 30, staff: ['doris'], records: [text('Kontaktorsak'), text('Planering')] },
    // Written in the hour a daylight-saving change repeats or skips, and never signed.
    { noteId: '000344001', contact: 52, at: '0230', template: 'Omvårdnadsanteckning', typeOfNote: 'Omvårdnad',
      active: false, versionAfter: 0, staff: ['sven'], records: [text('Sömn & vila')] },
    { noteId: '000322417', contact: 53, template: 'Telefonanteckning', typeOfNote: 'Telefonkontakt',
      active: true, versionAfter: 12, signAfter: 20, staff: ['doris'], records: [text('Kontaktorsak'), text('Åtgärd')] },
  ],
  '198112189876': [
    { noteId: '000352001', contact: 11, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 40, signAfter: 45, staff: ['doris'], records: [text('Anamnes'), status(bloodPressure('118', '076'))] },
  ],
  '201701012393': [
    { noteId: '000353110', contact: 11, template: 'Tillväxtuppföljning', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 30, signAfter: 35, staff: ['bodil'], records: [status({
        id: 'openEHR-EHR-CLUSTER.growth.v1', name: 'Tillväxt', at: [3, 8], children: [
          q('openEHR-EHR-OBSERVATION.height.v2', 'Längd', '131.5', 'cm'),
          q('openEHR-EHR-OBSERVATION.body_weight.v2', 'Vikt', '28.0', 'kg'),
          q('openEHR-EHR-OBSERVATION.body_mass_index.v2', 'BMI', '16.2', 'kg/m2', '14.0-19.0'),
        ] }), text('Bedömning')] },
    { noteId: '000350090', contact: 12, template: 'Vaccinationsanteckning', typeOfNote: 'Vaccination',
      active: true, versionAfter: 10, signAfter: 12, staff: ['sven'], records: [text('Vaccination')] },
  ],
  '200404122384': [
    { noteId: '000354060', contact: 11, template: 'Samtalsanteckning', typeOfNote: 'Samtal',
      active: true, versionAfter: 50, signAfter: 55, staff: ['ylva'], records: [text('Samtal')] },
    { noteId: '000340640', contact: 51, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 28, signAfter: 30, staff: ['doris'], records: [text('Anamnes'), text('Bedömning')] },
  ],
  '194608632396': [
    { noteId: '000355015', contact: 11, template: 'Mottagningsanteckning kardiologi', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 40, signAfter: 120, staff: ['hassan'], records: [status(
        q('openEHR-EHR-OBSERVATION.body_weight.v2', 'Vikt', '82.4', 'kg'),
        q('openEHR-EHR-OBSERVATION.laboratory_test_result.v1', 'NT-proBNP', '1240', 'ng/L', '<300'),
      ), text('Bedömning')] },
    { noteId: '000345160', contact: 51, template: 'Inskrivningsanteckning', typeOfNote: 'Inskrivning',
      active: true, versionAfter: 90, signAfter: 600, staff: ['hassan'], records: [text('Orsak till inskrivning')] },
  ],
  '197305242385': [
    { noteId: '000356008', contact: 11, template: 'Samtalsanteckning psykolog', typeOfNote: 'Samtal',
      active: true, versionAfter: 60, signAfter: 65, staff: ['paivi'], records: [text('Samtal'), text('Planering')] },
    { noteId: '000346220', contact: 51, template: 'Digital kontakt', typeOfNote: 'Distanskontakt',
      active: true, versionAfter: 15, signAfter: 18, staff: ['doris'], records: [text('Kontaktorsak')] },
  ],
};
