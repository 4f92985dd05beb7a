import type { StaffKey } from '../../dev/demo-data/units.js';

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

/** One value: its type (the vendor's JournalValueType codes) and, in minor version 3.1, its text. */
export interface ValueSpec {
  type: string;
  text?: string;
}

export interface RecordSpec {
  keyword: string;
  /** The vendor's KeywordToolType codes (TextTool, NumericTool ...). */
  tool: string;
  values: readonly ValueSpec[];
  unit?: string;
  range?: string;
  /** KeywordSecrecyLevels. */
  secrecy?: string;
  archetypes?: readonly ArchetypeSpec[];
  /** One Record nested in this one. */
  nested?: RecordSpec;
}

export interface NoteSpec {
  noteId: string;
  /** The contact (plan number n) the note was written at. */
  contact: number;
  /** Local `hhmm` on the contact's day; absent = the contact's start. */
  at?: string;
  template: string;
  typeOfNote: string;
  /** NoteSecrecyLevels; absent: Normal. */
  secrecy?: string;
  active: boolean;
  inactiveReason?: string;
  /** Minutes from note time to its last version and to its signature; unsigned without `signAfter`. */
  versionAfter: number;
  signAfter?: number;
  staff: readonly StaffKey[];
  records: readonly RecordSpec[];
}

const text = (keyword: string, body: string, more: Partial<RecordSpec> = {}): RecordSpec =>
  ({ keyword, tool: 'TextTool', values: [{ type: 'Text', text: body }], ...more });
const numeric = (keyword: string, value: string, unit: string, range?: string): RecordSpec =>
  ({ keyword, tool: 'NumericTool', values: [{ type: 'Numeric', text: value }], unit, range });
const diagnosis = (code: string, then?: RecordSpec): RecordSpec =>
  ({ keyword: 'Diagnos', tool: 'ClinicalCodingTool', values: [{ type: 'Diagnosis', text: code }], nested: then });
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

/** Measurements as archetypes (a value of type Other) beside the clinician's own words. */
const status = (body: string, ...archetypes: ArchetypeSpec[]): RecordSpec =>
  ({ keyword: 'Status', tool: 'Other', values: [{ type: 'Other' }, { type: 'Text', text: body }], archetypes });

export const NOTES: Readonly<Record<string, readonly NoteSpec[]>> = {
  '191212121212': [
    { noteId: '000345678', contact: 51, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 55, signAfter: 60, staff: ['doris', 'sven'], records: [
        text('Anamnes', 'Kommer på årlig diabeteskontroll. Mår bra, inga känningar av lågt blodsocker.\n'
          + 'Tar sitt insulin som ordinerat. Promenerar en halvtimme de flesta dagar.\n'
          + 'Behandlas med warfarin (AK-mottagningen), PK(INR) 2,4 i förra veckan & stabilt.'),
        status('Allmäntillstånd: opåverkad.\nHjärta: regelbunden rytm, inga blåsljud.\nFötter: fina pulsar, inga sår.',
          bloodPressure('128', '084'), temperature('37.2')),
        numeric('HbA1c', '52', 'mmol/mol', '<53'),
        text('Bedömning', 'Välreglerad typ 2-diabetes. Blodtrycket är inom målet.', {
          nested: diagnosis('E11.9 Typ 2-diabetes utan komplikationer',
            text('Åtgärd', 'Fortsatt samma behandling. Nytt HbA1c om sex månader. Remiss till fotvården skickas.')),
        }),
      ] },
    { noteId: '000301002', contact: 55, template: 'Tandvårdsanteckning', typeOfNote: 'Behandling',
      active: true, versionAfter: 70, signAfter: 75, staff: ['asa'], records: [
        text('Åtgärd', 'Tanden längst bak i underkäken till höger (46) är dragen i lokalbedövning. Ingreppet gick bra.'),
        text('Eftervård', 'Bit på kompressen i 30 minuter. Undvik varm mat och dryck resten av dagen.\n'
          + 'Ring oss vid kraftig blödning eller feber.'),
      ] },
    { noteId: '000351210', contact: 12, template: 'Distanskontakt läkare', typeOfNote: 'Distanskontakt',
      active: true, versionAfter: 25, signAfter: 30, staff: ['doris'], records: [
        text('Kontaktorsak', 'Videobesök för att gå igenom provsvaren.'),
        numeric('Hb', '128', 'g/L', '134-170'),
        text('Planering', 'Blodvärdet är lätt sänkt och kreatininet något förhöjt. Nya prover om tre månader, kallelse kommer per brev.'),
      ] },
    // Written in the hour a daylight-saving change repeats or skips, never signed, then made inactive.
    { noteId: '000344001', contact: 52, at: '0230', template: 'Omvårdnadsanteckning', typeOfNote: 'Omvårdnad',
      active: false, inactiveReason: 'Skriven på fel vårdtillfälle \u2013 ersatt av ny anteckning', versionAfter: 0,
      staff: ['sven'], records: [text('Sömn & vila', 'Sov oroligt under natten, fick hjälp till toaletten två gånger.')] },
    // A note with a secrecy level (examples/release-policy.json withholds it): what a relative told in confidence.
    { noteId: '000348899', contact: 54, template: 'Journalanteckning', typeOfNote: 'Administrativ', secrecy: 'Sekretess',
      active: true, versionAfter: 10, signAfter: 15, staff: ['doris'], records: [
        text('Anteckning', 'Dottern berättar i förtroende om oro för hur patienten klarar sig hemma. Uppgiften lämnas inte ut.'),
      ] },
    { noteId: '000322417', contact: 53, template: 'Telefonanteckning', typeOfNote: 'Telefonkontakt',
      active: true, versionAfter: 12, signAfter: 20, staff: ['doris'], records: [
        text('Kontaktorsak', 'Ringer och undrar över kolesterolvärdet från förra veckan.'),
        text('Åtgärd', 'Värdet är lätt förhöjt. Rekommenderar mindre mättat fett i maten och ny kontroll om tre månader.'),
      ] },
  ],
  '198112189876': [
    { noteId: '000352001', contact: 11, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 40, signAfter: 45, staff: ['doris'], records: [
        text('Anamnes', 'Hälsokontroll. Inga besvär. Röker inte, tränar två gånger i veckan.'),
        status('Opåverkad. Blodtrycket är normalt.', bloodPressure('118', '076')),
        text('Bedömning', 'Frisk. Ingen ny kontroll behövs, hör av dig vid besvär.'),
      ] },
  ],
  '201701012393': [
    { noteId: '000353110', contact: 11, template: 'Tillväxtuppföljning', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 30, signAfter: 35, staff: ['bodil'], records: [
        status('Pigg och glad flicka. Växer längs sin kurva.', {
          id: 'openEHR-EHR-CLUSTER.growth.v1', name: 'Tillväxt', at: [3, 8], children: [
            q('openEHR-EHR-OBSERVATION.height.v2', 'Längd', '131.5', 'cm'),
            q('openEHR-EHR-OBSERVATION.body_weight.v2', 'Vikt', '28.0', 'kg'),
            q('openEHR-EHR-OBSERVATION.body_mass_index.v2', 'BMI', '16.2', 'kg/m2', '14.0-19.0'),
          ] }),
        text('Bedömning', 'Normal tillväxt. Astman är välkontrollerad med nuvarande inhalator.\nÅterbesök om ett år.'),
      ] },
    // Written at a Barnahus, and one with a keyword the region withholds (examples/release-policy.json).
    { noteId: '000357001', contact: 52, template: 'Samtalsanteckning kurator', typeOfNote: 'Samtal',
      active: true, versionAfter: 30, signAfter: 40, staff: ['karin'], records: [
        text('Samtal', 'Samråd på Barnahus. Barnet berättar i egen takt; uppföljande samtal planeras.'),
      ] },
    { noteId: '000357002', contact: 51, template: 'Akutanteckning', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 90, signAfter: 120, staff: ['bodil'], records: [
        text('Anamnes', 'Astmaanfall under kvällen. Svarar bra på inhalationer.'),
        text('Orosanmälan', 'Orosanmälan till socialtjänsten gjord enligt rutin.'),
      ] },
    { noteId: '000350090', contact: 12, template: 'Vaccinationsanteckning', typeOfNote: 'Vaccination',
      active: true, versionAfter: 10, signAfter: 12, staff: ['sven'], records: [
        text('Vaccination', 'Vaccin enligt barnvaccinationsprogrammet givet i vänster överarm. '
          + 'Inga biverkningar under 15 minuters observation.'),
      ] },
  ],
  '200404122384': [
    { noteId: '000354060', contact: 11, template: 'Samtalsanteckning', typeOfNote: 'Samtal',
      active: true, versionAfter: 50, signAfter: 55, staff: ['ylva'], records: [
        text('Samtal', 'Samtal om sexuell hälsa. Erbjuden klamydiatest, tas vid nästa besök.', { secrecy: 'Känslig uppgift' }),
      ] },
    { noteId: '000340640', contact: 51, template: 'Besöksanteckning läkare', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 28, signAfter: 30, staff: ['doris'], records: [
        text('Anamnes', 'Vrickade höger fotled på fotbollsträningen igår. Kan stödja på foten men det gör ont.'),
        text('Bedömning', 'Stukad fotled, ingen misstanke om benbrott. Högläge, kyla och stödskydd i två veckor.\n'
          + 'Hör av dig om det inte blivit bättre efter två veckor.'),
      ] },
  ],
  '194608632396': [
    { noteId: '000355015', contact: 11, template: 'Mottagningsanteckning kardiologi', typeOfNote: 'Besöksanteckning',
      active: true, versionAfter: 40, signAfter: 120, staff: ['hassan'], records: [
        status('Lätta svullnader runt anklarna. Lungorna låter fria.',
          q('openEHR-EHR-OBSERVATION.body_weight.v2', 'Vikt', '82.4', 'kg'),
          q('openEHR-EHR-OBSERVATION.laboratory_test_result.v1', 'NT-proBNP', '1240', 'ng/L', '<300')),
        text('Bedömning', 'Stabil hjärtsvikt. Fortsätt med samma läkemedel.\n'
          + 'Väg dig varje morgon och ring mottagningen om vikten ökar mer än 2 kg på tre dagar.'),
      ] },
    { noteId: '000345160', contact: 51, template: 'Inskrivningsanteckning', typeOfNote: 'Inskrivning',
      active: true, versionAfter: 90, signAfter: 600, staff: ['hassan'], records: [
        text('Orsak till inskrivning', 'Tilltagande andfåddhet sedan en vecka och svullna ben. '
          + 'Läggs in för behandling med vätskedrivande läkemedel.'),
      ] },
    // One keyword with a secrecy level among others: examples/release-policy.json withholds that keyword only.
    { noteId: '000345170', contact: 51, template: 'Omvårdnadsanteckning', typeOfNote: 'Omvårdnad',
      active: true, versionAfter: 700, signAfter: 720, staff: ['hassan'], records: [
        text('Förlopp', 'Gott svar på vätskedrivande. Vikten har minskat 2 kg sedan inskrivningen.'),
        text('Socialt', 'Berättar i enskilt samtal om oro för ekonomin; kurator kontaktad.', { secrecy: 'Känslig uppgift' }),
        text('Uppföljning', 'Fortsatt daglig vägning. Återbesök på hjärtmottagningen efter utskrivning.'),
      ] },
  ],
  '197305242385': [
    { noteId: '000356008', contact: 11, template: 'Samtalsanteckning psykolog', typeOfNote: 'Samtal',
      active: true, versionAfter: 60, signAfter: 65, staff: ['paivi'], records: [
        text('Samtal', 'Fortsatt samtalsbehandling. Beskriver bättre sömn och mindre oro sedan förra besöket.',
          { secrecy: 'Känslig uppgift' }),
        text('Planering', 'Nästa samtal om fyra veckor.'),
      ] },
    { noteId: '000346220', contact: 51, template: 'Digital kontakt', typeOfNote: 'Distanskontakt',
      active: true, versionAfter: 15, signAfter: 18, staff: ['doris'], records: [
        text('Kontaktorsak', 'Chattbesök om förnyelse av recept. Receptet är förnyat och finns på apoteket.'),
      ] },
  ],
};
