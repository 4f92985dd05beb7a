/**
 * Fictional care units and clinicians shared by all demo documents, so a booking, its care contact,
 * its journal note and its prescription name the same unit and the same person.
 */

export const HSA_ROOT = '1.2.752.129.2.1.4.1';
export const LOCAL_UNIT_ROOT = '1.2.752.99999.1.4';
export const POSITION_ROOT = '1.2.752.99999.1.7';
export const EHR_SYSTEM_ID = 'SE2321000016-1SYS';
export const HEAD_UNIT = { hsaId: 'SE2321000016-0001', internalId: '00000001', localId: '1' } as const;

export interface CareUnit {
  name: string;
  hsaId: string;
  /** Internal id with its leading zeros (a string upstream). */
  internalId: string;
  localId: string;
  street: string;
  postcode: string;
  city: string;
  /** The county (län) of the visiting address. */
  county: string;
  phone: string;
  email?: string;
  secrecyGroup: string;
  /** The unit's own access zone (an AccessZoneID extension); absent: the demo region's shared zone. */
  accessZone?: string;
}

const STHLM = { postcode: '118 20', city: 'Stockholm', county: 'Stockholms län' } as const;
const SJUKHUS = { street: 'Sjukhusvägen 1', postcode: '118 83', city: 'Stockholm', county: 'Stockholms län' } as const;

export const UNITS = {
  vc: {
    name: 'Vårdcentralen Tolvstad', hsaId: 'SE2321000016-7P4K', internalId: '00004711', localId: '4711',
    street: 'Tolvstadsplan 1', ...STHLM, phone: '08-46500400', email: 'vc.tolvstad@example.se', secrecyGroup: 'PRIMARVARD',
  },
  tand: {
    name: 'Tandvården Exempelsjukhuset', hsaId: 'SE2321000016-TND1', internalId: '00000815', localId: '815',
    ...SJUKHUS, street: 'Sjukhusvägen 1, hus 7', phone: '08-46500420', email: 'tandvarden@example.se', secrecyGroup: 'TANDVARD',
  },
  fysio: {
    name: 'Fysioterapin Tolvstad', hsaId: 'SE2321000016-F3YS', internalId: '00004712', localId: '4712',
    street: 'Tolvstadsplan 3', ...STHLM, phone: '08-46500430', secrecyGroup: 'PRIMARVARD',
  },
  // Upstream really has a ward whose name is just its number; it must stay the string "23".
  avd23: {
    name: '23', hsaId: 'SE2321000016-A23X', internalId: '00000023', localId: '23',
    ...SJUKHUS, phone: '08-46500423', secrecyGroup: 'SLUTENVARD',
  },
  psyk: {
    name: 'Psykiatriska mottagningen Tolvstad', hsaId: 'SE2321000016-PS01', internalId: '00006101', localId: '6101',
    street: 'Tolvstadsplan 5', ...STHLM, phone: '08-46500460', secrecyGroup: 'PSYKIATRI',
  },
  barn: {
    name: 'Barn- och ungdomsmedicinska mottagningen', hsaId: 'SE2321000016-BU01', internalId: '00007201',
    localId: '7201', ...SJUKHUS, phone: '08-46500470', email: 'bum@example.se', secrecyGroup: 'BVC & MVC',
  },
  hjarta: {
    name: 'Hjärtmottagningen Exempelsjukhuset', hsaId: 'SE2321000016-HJ01', internalId: '00008301', localId: '8301',
    ...SJUKHUS, phone: '08-46500480', secrecyGroup: 'SPECIALISTVARD',
  },
  akut: {
    name: 'Akutmottagningen Exempelsjukhuset', hsaId: 'SE2321000016-AK01', internalId: '00000112', localId: '112',
    ...SJUKHUS, phone: '08-46500112', secrecyGroup: 'AKUT',
  },
  ungdom: {
    name: 'Ungdomsmottagningen Uppsala', hsaId: 'SE2321000033-UM01', internalId: '00009401', localId: '9401',
    street: 'Kungsgatan 40', postcode: '753 21', city: 'Uppsala', county: 'Uppsala län', phone: '018-6110000', secrecyGroup: 'UNGDOM',
  },
  lab: {
    name: 'Klinisk kemi, Exempelsjukhuset', hsaId: 'SE2321000016-KK17', internalId: '00000817', localId: '817',
    ...SJUKHUS, phone: '08-46500817', email: 'klinkem@example.se', secrecyGroup: 'LAB',
  },
  // Where a child is heard after suspected abuse: what is written here must not reach a guardian
  // through the app. examples/release-policy.json withholds it by unit and by access zone.
  barnahus: {
    name: 'Barnahus Tolvstad', hsaId: 'SE2321000016-BH01', internalId: '00009901', localId: '9901',
    street: 'Tolvstadsplan 9', ...STHLM, phone: '08-46500490', secrecyGroup: 'BARNAHUS', accessZone: '00000099',
  },
} as const satisfies Record<string, CareUnit>;

export type UnitKey = keyof typeof UNITS;

/** The unit's own access zone, or the zone `shared` that the demo's other units are in. */
export function accessZoneOf(key: UnitKey, shared: string): string {
  const unit: CareUnit = UNITS[key];
  return unit.accessZone ?? shared;
}

export interface Clinician {
  name: string;
  /** Short profession text, as video meetings show it. */
  type: string;
  positionId: string;
  positionName: string;
  hsaId: string;
  internalId: string;
  unit: UnitKey;
}

export const STAFF = {
  doris: {
    name: 'Doris Doktorsson', type: 'Läkare', positionId: 'LK', positionName: 'Specialist i allmänmedicin',
    hsaId: 'SE2321000016-L0K1', internalId: '00031415', unit: 'vc',
  },
  sven: {
    name: 'Sven Sköterska', type: 'Sjuksköterska', positionId: 'SSK', positionName: 'Sjuksköterska',
    hsaId: 'SE2321000016-S5K7', internalId: '00027182', unit: 'vc',
  },
  asa: {
    name: 'Åsa Ärlig', type: 'Tandläkare', positionId: 'TL', positionName: 'Tandläkare',
    hsaId: 'SE2321000016-T7A2', internalId: '00016180', unit: 'tand',
  },
  fredrik: {
    name: 'Fredrik Fysiosson', type: 'Fysioterapeut', positionId: 'FT', positionName: 'Leg. fysioterapeut',
    hsaId: 'SE2321000016-F1Y5', internalId: '00014142', unit: 'fysio',
  },
  paivi: {
    name: 'Päivi Psykologsson', type: 'Psykolog', positionId: 'PSY', positionName: 'Leg. psykolog',
    hsaId: 'SE2321000016-P5Y1', internalId: '00017320', unit: 'psyk',
  },
  bodil: {
    name: 'Bodil Barnläkarsson', type: 'Läkare', positionId: 'LK', positionName: 'Specialist i barn- och ungdomsmedicin',
    hsaId: 'SE2321000016-B4RN', internalId: '00022360', unit: 'barn',
  },
  hassan: {
    name: 'Hassan Hjärtberg', type: 'Läkare', positionId: 'LK', positionName: 'Specialist i kardiologi',
    hsaId: 'SE2321000016-K4RD', internalId: '00026457', unit: 'hjarta',
  },
  karin: {
    name: 'Karin Kurator', type: 'Kurator', positionId: 'KUR', positionName: 'Hälso- och sjukvårdskurator',
    hsaId: 'SE2321000016-K9R1', internalId: '00031999', unit: 'barnahus',
  },
  ylva: {
    name: 'Ylva Ungdomsson', type: 'Barnmorska', positionId: 'BM', positionName: 'Barnmorska',
    hsaId: 'SE2321000033-B7M1', internalId: '00030103', unit: 'ungdom',
  },
  ali: {
    name: 'Ali Tolk', type: 'Tolk (arabiska)', positionId: 'TOLK', positionName: 'Kontakttolk',
    hsaId: 'SE2321000016-T0LK', internalId: '00099001', unit: 'psyk',
  },
  lena: {
    name: 'Lena Labläkare', type: 'Läkare', positionId: 'LK', positionName: 'Specialist i klinisk kemi',
    hsaId: 'SE2321000016-L4B1', internalId: '00041421', unit: 'lab',
  },
  // A name as a person has one (issue 47 item 9: no `<AT>` placeholder); markup-like text is in the notes' texts.
  student: {
    name: 'Elsa Ödman', type: 'Student', positionId: 'STUD', positionName: 'Läkarstudent',
    hsaId: 'SE2321000016-ST01', internalId: '00099002', unit: 'vc',
  },
} as const satisfies Record<string, Clinician>;

export type StaffKey = keyof typeof STAFF;
