import { addDays, dayAt, type DemoClock } from './clock.js';
import { NS, tv } from './ix.js';
import type { DemoPerson } from './people.js';
import { UNITS, type UnitKey } from './units.js';
import { cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlElement } from './xml.js';

/** AttentionSignals (README §3): warnings every caregiver must see. */

interface SignalSpec {
  id: string;
  type: string;
  description: string;
  /** '' writes an empty `<Severity/>`, which reads as absent. */
  severity?: string;
  /** Days from today, or 'dst' for the latest daylight-saving change day. */
  day: number | 'dst';
  time: string;
  /** 'date' writes an 8-digit ValidFrom (a calendar date); 'start' the registration day at 00:00:00. */
  validFrom?: 'date' | 'start';
  /** Days after registration; null writes an empty `<ValidTo/>`. */
  validDays?: number | null;
  unit: UnitKey;
}

const SIGNALS: Readonly<Record<string, readonly SignalSpec[]>> = {
  '191212121212': [
    { id: 'AS-000101', type: 'OVERKANSLIGHET', description: 'Penicillin \u2013 anafylaktisk reaktion', severity: 'Livshotande',
      day: -690, time: '1422', validFrom: 'date', validDays: null, unit: 'akut' },
    // Registered in the repeated (or skipped) hour of a daylight-saving change.
    { id: 'AS-000187', type: 'SMITTA', description: 'MRSA-bärare, isoleringsrutin & basala hygienrutiner', severity: '',
      day: 'dst', time: '0230', validFrom: 'start', validDays: 365, unit: 'avd23' },
    { id: 'AS-000102', type: 'BEHANDLING', description: 'Antikoagulantia (warfarin) \u2013 PK(INR) mål 2,0\u20133,0; <blödningsrisk>',
      severity: 'Skadlig', day: -540, time: '0915', unit: 'vc' },
    { id: 'AS-000103', type: 'TILLSTAND', description: 'Diabetes mellitus typ 1', severity: 'Besvärande',
      day: -720, time: '1100', validFrom: 'start', unit: 'vc' },
    { id: 'AS-000190', type: 'VARDBEGRANSNING', description: 'Ej HLR enligt beslut, se journal',
      day: -60, time: '1605', validFrom: 'start', unit: 'avd23' },
  ],
  '198112189876': [
    { id: 'AS-000311', type: 'OVERKANSLIGHET', description: 'Nötter \u2013 nässelutslag', severity: 'Besvärande',
      day: -480, time: '1010', validFrom: 'start', unit: 'vc' },
  ],
  '201701012393': [
    { id: 'AS-000421', type: 'OVERKANSLIGHET', description: 'Jordnötter \u2013 anafylaxi, adrenalinpenna', severity: 'Livshotande',
      day: -400, time: '2105', validFrom: 'start', unit: 'akut' },
    { id: 'AS-000422', type: 'TILLSTAND', description: 'Astma', severity: 'Besvärande', day: -380, time: '1330', unit: 'barn' },
  ],
  '194608632396': [
    { id: 'AS-000530', type: 'BEHANDLING', description: 'Antikoagulantia (warfarin), PK(INR) 2,0\u20133,0',
      severity: 'Skadlig', day: -150, time: '1130', validFrom: 'start', unit: 'hjarta' },
    { id: 'AS-000531', type: 'TILLSTAND', description: 'Hjärtsvikt & förmaksflimmer', day: -158, time: '0845', unit: 'hjarta' },
  ],
  '197305242385': [
    { id: 'AS-000640', type: 'OVRIGT', description: 'Skyddad identitet \u2013 lämna inga uppgifter per telefon',
      day: -700, time: '0800', validFrom: 'date', unit: 'vc' },
  ],
};

function signal(spec: SignalSpec, clock: DemoClock, index: number): XmlElement {
  const day = spec.day === 'dst' ? clock.dstChangeDay : spec.day;
  const registeredDay = addDays(clock.today, day);
  return el(index === 2 ? 'as:AttentionSignal' : 'AttentionSignal',
    el('SignalId', spec.id),
    el('SignalType', spec.type),
    el('Description', cdataIfMarkup(spec.description)),
    spec.severity === '' ? el('Severity') : leaf('Severity', spec.severity),
    tv('RegisteredDateTime', dayAt(clock, day, spec.time)),
    spec.validFrom === 'date' && tv('ValidFrom', registeredDay),
    spec.validFrom === 'start' && tv('ValidFrom', `${registeredDay}000000`),
    spec.validDays === null ? el('ValidTo')
      : spec.validDays !== undefined && tv('ValidTo', `${addDays(registeredDay, spec.validDays)}235959`),
    el('PerformingUnitName', UNITS[spec.unit].name));
}

export function attentionSignalsDocument(person: DemoPerson, clock: DemoClock): string {
  const root = tag('AttentionSignals', { xmlns: NS.attentionsignals, 'xmlns:as': NS.attentionsignals },
    (SIGNALS[person.id] ?? []).map((spec, i) => signal(spec, clock, i)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/attentionsignals (synthetic demo data, generated `
    + `for ${clock.today}). Traps where present: empty ValidTo and Severity (= absent), a registration in the `
    + 'hour a daylight-saving change repeats or skips, an 8-digit ValidFrom, an unknown SignalType, CDATA, '
    + 'an escaped ampersand, a prefixed element, and no signals at all.');
}
