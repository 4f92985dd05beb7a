import type { StaffKey, UnitKey } from '../../dev/demo-data/units.js';

/**
 * What the demo attention signals say; attentionsignals.ts writes them in the vendor's layout.
 * Every demo person has at least one hypersensitivity with its agent and reaction. Listed out of
 * time order on purpose.
 */

export type SignalKind = 'Hypersensitivity' | 'ContagiousDisease' | 'TreatmentAndCondition' | 'Unstructured';

export interface SignalSpec {
  id: string;
  kind: SignalKind;
  subType: string;
  heading: string;
  comment?: string;
  /** Days from today, or 'dst' for the latest daylight-saving change day. */
  day: number | 'dst';
  time: string;
  staff: StaffKey;
  unit?: UnitKey;
  /** Hypersensitivity: how bad, how sure, what happens and to what. */
  severity?: string;
  certitude?: string;
  reaction?: string;
  reactionTypes?: readonly string[];
  agents?: readonly string[];
  atc?: readonly (readonly [code: string, name: string])[];
  /** Treatment: its code, its description and the diagnosis behind it. */
  code?: string;
  description?: string;
  diagnosis?: readonly [code: string, text: string];
  /** Days after registration when it is to be reassessed. */
  reassessDays?: number;
  /** Made inactive: days after registration, and why. */
  deleted?: readonly [days: number, comment: string];
}

export const SIGNALS: Readonly<Record<string, readonly SignalSpec[]>> = {
  '191212121212': [
    { id: '000101', kind: 'Hypersensitivity', subType: 'Läkemedelsöverkänslighet', heading: 'Penicilliner',
      comment: 'Anafylaktisk reaktion efter V-penicillin \u2013 adrenalin gavs på akuten.\nUndvik alla betalaktamer tills allergiutredning är gjord.',
      day: -690, time: '1422', staff: 'doris', unit: 'akut', severity: 'Livshotande', reaction: 'Anafylaxi',
      reactionTypes: ['Anafylaxi', 'Urtikaria'], agents: ['Fenoximetylpenicillin', 'Bensylpenicillin'],
      atc: [['J01CE02', 'Fenoximetylpenicillin'], ['J01CE01', 'Bensylpenicillin']] },
    // Registered in the repeated (or skipped) hour of a daylight-saving change.
    { id: '000187', kind: 'ContagiousDisease', subType: 'Smittsam sjukdom', heading: 'MRSA',
      comment: 'MRSA-bärare, isoleringsrutin & basala hygienrutiner vid all vård.', day: 'dst', time: '0230',
      staff: 'sven', unit: 'avd23', reassessDays: 365 },
    { id: '000102', kind: 'TreatmentAndCondition', subType: 'Behandling', heading: 'Antikoagulantiabehandling',
      comment: 'Antikoagulantia (warfarin) \u2013 PK(INR) mål 2,0\u20133,0; <blödningsrisk> vid ingrepp & punktion',
      day: -540, time: '0915', staff: 'doris', code: 'B01AA03', description: 'Warfarin, dosering enligt AK-mottagningen',
      diagnosis: ['I48.9', 'Förmaksflimmer och förmaksfladder, ospecificerat'] },
    { id: '000190', kind: 'Unstructured', subType: 'Ostrukturerad uppgift', heading: 'Vårdbegränsning',
      comment: 'Ej HLR enligt beslut av ansvarig läkare, efter samtal med patient & dotter. Se journalanteckning samma dag.',
      day: -60, time: '1605', staff: 'sven', unit: 'avd23', reassessDays: 365 },
    { id: '000175', kind: 'Hypersensitivity', subType: 'Överkänslighet, ej läkemedel', heading: 'Plåster (kolofonium)',
      day: -580, time: '1103', staff: 'sven', severity: 'Besvärande', certitude: 'Misstänkt', reaction: 'Kontakteksem',
      agents: ['Kolofonium'], deleted: [17, 'Ej verifierad vid lapptest \u2013 makulerad'] },
  ],
  '198112189876': [
    { id: '000311', kind: 'Hypersensitivity', subType: 'Födoämnesöverkänslighet', heading: 'Nötter',
      comment: 'Nässelutslag och svullna läppar efter hasselnötter.', day: -480, time: '1010', staff: 'doris',
      severity: 'Besvärande', reaction: 'Urtikaria', reactionTypes: ['Urtikaria', 'Angioödem'], agents: ['Hasselnöt', 'Valnöt'] },
  ],
  '201701012393': [
    { id: '000421', kind: 'Hypersensitivity', subType: 'Födoämnesöverkänslighet', heading: 'Jordnötter',
      comment: 'Anafylaxi vid 3 års ålder. Adrenalinpenna (Jext 150 mikrog) ska alltid finnas med, även i förskolan.',
      day: -400, time: '2105', staff: 'bodil', unit: 'akut', severity: 'Livshotande', reaction: 'Anafylaxi',
      reactionTypes: ['Anafylaxi'], agents: ['Jordnöt'] },
    { id: '000422', kind: 'TreatmentAndCondition', subType: 'Tillstånd', heading: 'Astma',
      comment: 'Använder inhalator vid förkylning och ansträngning.', day: -380, time: '1330', staff: 'bodil',
      diagnosis: ['J45.9', 'Astma, ospecificerad'] },
    // Registered at a Barnahus: examples/release-policy.json withholds it from her guardian.
    { id: '000423', kind: 'Unstructured', subType: 'Ostrukturerad uppgift', heading: 'Samråd Barnahus',
      comment: 'Frågor om barnets samtal hänvisas till Barnahus.', day: -45, time: '1130', staff: 'karin' },
  ],
  '200404122384': [
    { id: '000512', kind: 'Hypersensitivity', subType: 'Överkänslighet, ej läkemedel', heading: 'Björkpollen',
      comment: 'Rinnsnuva och kliande ögon april\u2013maj.', day: -900, time: '1420', staff: 'doris',
      severity: 'Besvärande', reaction: 'Rinokonjunktivit', agents: ['Björkpollen'] },
  ],
  '194608632396': [
    { id: '000530', kind: 'TreatmentAndCondition', subType: 'Behandling', heading: 'Antikoagulantiabehandling',
      comment: 'Warfarin, PK(INR) mål 2,0\u20133,0.', day: -150, time: '1130', staff: 'hassan', code: 'B01AA03',
      description: 'Warfarin', diagnosis: ['I50.9', 'Hjärtsvikt, ospecificerad'] },
    { id: '000532', kind: 'Hypersensitivity', subType: 'Läkemedelsöverkänslighet', heading: 'ACE-hämmare',
      comment: 'Svullnad i ansikte och tunga av enalapril.', day: -158, time: '0845', staff: 'hassan',
      severity: 'Allvarlig', reaction: 'Angioödem', reactionTypes: ['Angioödem'], agents: ['Enalapril'],
      atc: [['C09AA02', 'Enalapril']] },
  ],
  '197305242385': [
    { id: '000640', kind: 'Unstructured', subType: 'Ostrukturerad uppgift', heading: 'Skyddad identitet',
      comment: 'Lämna inga uppgifter per telefon.', day: -700, time: '0800', staff: 'doris' },
    { id: '000641', kind: 'Hypersensitivity', subType: 'Överkänslighet, ej läkemedel', heading: 'Latex',
      comment: 'Använd latexfria handskar.', day: -300, time: '0915', staff: 'doris', severity: 'Besvärande',
      reaction: 'Kontakteksem', agents: ['Naturgummilatex'] },
  ],
};
