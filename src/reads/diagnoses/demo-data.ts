import type { StaffKey, UnitKey } from '../../dev/demo-data/units.js';

/** What the demo diagnoses say; diagnoses.ts turns them into DiagnosisEHRExtracts. */

export interface ActionSpec {
  /** A KVÅ code and its text; done `after` minutes after the diagnosis was set. */
  code: string;
  text: string;
  after?: number;
}

export interface DiagnosisSpec {
  /** ICD-10-SE, dot kept. */
  code: string;
  text: string;
  type: 'Huvuddiagnos' | 'Bidiagnos' | 'Yttre orsak';
  chronic?: boolean;
  /** Diagnoses under this one (an external cause under an injury). */
  nested?: readonly DiagnosisSpec[];
  actions?: readonly ActionSpec[];
}

export interface DiagnosisNoteSpec {
  n: number;
  day: number | 'dst';
  time: string;
  staff: StaffKey;
  unit: UnitKey;
  template: string;
  /** Minutes until signed; unsigned without it. */
  signAfter?: number;
  /** DiagnosisSecrecyLevels; absent: Normal. */
  secrecy?: string;
  active?: false;
  diagnoses: readonly DiagnosisSpec[];
  /** Actions under `diagnoses` itself, beside the diagnoses. */
  actions?: readonly ActionSpec[];
}

const asthma: DiagnosisSpec = { code: 'J45.9', text: 'Astma, ospecificerad', type: 'Huvuddiagnos', chronic: true };

export const DIAGNOSES: Readonly<Record<string, readonly DiagnosisNoteSpec[]>> = {
  // Tolvan: a chronic diagnosis, a fracture with the fall under it and the fall's activity under
  // that (nested to depth three), a reposition (KVÅ) and a cast beside the diagnoses, a note of
  // secrecy level Sekretess, and one not signed yet.
  '191212121212': [
    { n: 1, day: -400, time: '1015', staff: 'doris', unit: 'vc', template: 'Besöksanteckning läkare', signAfter: 65, diagnoses: [asthma] },
    {
      n: 2, day: 'dst', time: '0215', staff: 'student', unit: 'akut', template: 'Akutjournal', signAfter: 240,
      diagnoses: [{
        code: 'S52.5', text: 'Fraktur på nedre delen av radius', type: 'Huvuddiagnos', chronic: false,
        nested: [{
          code: 'W01', text: 'Fall i samma plan genom halkning, snavning och snubbling', type: 'Yttre orsak',
          nested: [{ code: 'Y93.0', text: 'Aktivitet: gång och promenad på isigt underlag', type: 'Yttre orsak' }],
        }],
        actions: [{ code: 'NCJ49', text: 'Sluten reposition av fraktur på distala radius', after: 90 }],
      }],
      actions: [{ code: 'QAB10', text: 'Gipsbehandling <underarm> vänster sida', after: 120 }],
    },
    {
      n: 3, day: -60, time: '1030', staff: 'paivi', unit: 'psyk', template: 'Bedömning psykolog', signAfter: 1440, secrecy: 'Sekretess',
      diagnoses: [{ code: 'F32.1', text: 'Medelsvår depressiv episod', type: 'Huvuddiagnos' }],
    },
    // The diabetes the annual check's note (journal notes) assesses and the insulin is prescribed for.
    { n: 5, day: -95, time: '1025', staff: 'doris', unit: 'vc', template: 'Besöksanteckning läkare', signAfter: 60,
      diagnoses: [{ code: 'E11.9', text: 'Typ 2-diabetes utan komplikationer', type: 'Huvuddiagnos', chronic: true }] },
    {
      n: 4, day: -1, time: '1400', staff: 'doris', unit: 'vc', template: 'Besöksanteckning läkare',
      diagnoses: [{ code: 'N39.0', text: 'Urinvägsinfektion utan angiven lokalisation', type: 'Huvuddiagnos' }, { ...asthma, type: 'Bidiagnos' }],
    },
  ],
  '198112189876': [
    { n: 1, day: -35, time: '0900', staff: 'doris', unit: 'vc', template: 'Besöksanteckning läkare', signAfter: 30,
      diagnoses: [{ code: 'E03.9', text: 'Hypotyreos, ospecificerad', type: 'Huvuddiagnos', chronic: true }] },
  ],
  // Lilla: a diagnosis her guardian sees until the age limit, and one set at the Barnahus that the
  // example release policy withholds from her guardian (by care unit).
  '201701012393': [
    { n: 1, day: -25, time: '1000', staff: 'bodil', unit: 'barn', template: 'Besöksanteckning läkare', signAfter: 45,
      diagnoses: [{ code: 'D50.9', text: 'Järnbristanemi, ospecificerad', type: 'Huvuddiagnos' }] },
    { n: 2, day: -30, time: '1300', staff: 'karin', unit: 'barnahus', template: 'Samtal kurator', signAfter: 60,
      diagnoses: [{ code: 'Z04.5', text: 'Undersökning och observation efter annan tillfogad skada', type: 'Huvuddiagnos' }] },
  ],
  '200404122384': [
    { n: 1, day: -90, time: '0915', staff: 'ylva', unit: 'ungdom', template: 'Besöksanteckning barnmorska', signAfter: 20,
      diagnoses: [{ code: 'Z11.3', text: 'Riktad hälsoundersökning avseende sexuellt överförbara sjukdomar', type: 'Huvuddiagnos' }] },
  ],
  '194608632396': [
    { n: 1, day: -15, time: '0800', staff: 'hassan', unit: 'hjarta', template: 'Besöksanteckning läkare', signAfter: 120,
      diagnoses: [
        { code: 'I50.9', text: 'Hjärtsvikt, ospecificerad', type: 'Huvuddiagnos', chronic: true },
        { code: 'I10', text: 'Essentiell hypertoni', type: 'Bidiagnos', chronic: true },
      ] },
  ],
  '197305242385': [
    { n: 1, day: -50, time: '0845', staff: 'doris', unit: 'vc', template: 'Besöksanteckning läkare', signAfter: 30,
      diagnoses: [{ code: 'J06.9', text: 'Akut övre luftvägsinfektion, ospecificerad', type: 'Huvuddiagnos' }] },
  ],
};
