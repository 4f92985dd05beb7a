import type { StaffKey } from '../../dev/demo-data/units.js';

/** What the demo prescriptions say; medications.ts turns them into PrescriptionRecords. */

export interface Product {
  /** Text upstream, Swedish decimal comma included ("2,5"). */
  strength: string;
  unit: string;
  atc: string;
  tradeName: string;
  nplId: string;
  form: string;
}

export const PRODUCTS = {
  paracetamol: { strength: '500', unit: 'mg', atc: 'N02BE01 Paracetamol', tradeName: 'Febrilon', nplId: '20091119100114', form: 'Filmdragerad tablett' },
  paracetamolGeneric: { strength: '500', unit: 'mg', atc: 'N02BE01 Paracetamol', tradeName: 'Paracetamol Exempla', nplId: '20120301100277', form: 'Tablett' },
  salbutamolNeb: { strength: '2,5', unit: 'mg/ml', atc: 'R03AC02 Salbutamol', tradeName: 'Andningslätt', nplId: '19950601000034', form: 'Lösning för nebulisator' },
  salbutamolSpray: { strength: '0,1', unit: 'mg/dos', atc: 'R03AC02 Salbutamol', tradeName: 'Andningslätt', nplId: '19950601000041', form: 'Inhalationsspray, suspension' },
  insulin: { strength: '100', unit: 'E/ml', atc: 'A10AB05 Insulin aspart', tradeName: 'Insulexa', nplId: '20010215000123', form: 'Injektionsvätska, lösning i förfylld injektionspenna' },
  warfarin: { strength: '2,5', unit: 'mg', atc: 'B01AA03 Warfarin', tradeName: 'Waranex', nplId: '19870101000077', form: 'Tablett' },
  furosemid: { strength: '40', unit: 'mg', atc: 'C03CA01 Furosemid', tradeName: 'Furixa', nplId: '19780815000019', form: 'Tablett' },
  metoprolol: { strength: '50', unit: 'mg', atc: 'C07AB02 Metoprolol', tradeName: 'Metobeta', nplId: '20040907000456', form: 'Depottablett' },
  levotyroxin: { strength: '50', unit: 'mikrog', atc: 'H03AA01 Levotyroxinnatrium', tradeName: 'Tyrexa', nplId: '19990310000088', form: 'Tablett' },
  sertralin: { strength: '50', unit: 'mg', atc: 'N06AB06 Sertralin', tradeName: 'Sertrexa', nplId: '20050620000311', form: 'Filmdragerad tablett' },
} as const satisfies Record<string, Product>;

export const ROUTES = {
  oral: { code: '20053000', name: 'Oral användning', abbreviation: 'PO' },
  inhalation: { code: '20049000', name: 'Inhalationsanvändning', abbreviation: 'INH' },
  subcutaneous: { code: '20066000', name: 'Subkutan användning', abbreviation: 'SC' },
} as const;

export interface DoseSpec { time?: string; min: string; max: string; unit: string }

export interface PrescriptionSpec {
  treatmentId: string;
  /** time_created as days from today and `hhmm`. */
  day: number;
  time: string;
  /** Set for an invalidated treatment: days after creation it was invalidated. */
  invalidatedAfter?: number;
  product: keyof typeof PRODUCTS;
  exchange?: keyof typeof PRODUCTS;
  exchangeAllowed: boolean;
  prescriptionType: string;
  medicationType: string;
  reason: string;
  goal?: string;
  whenNeeded: boolean;
  dosageText: string;
  dosageShort: string;
  conditionalText?: string;
  /** Days the dosage runs; absent = until further notice. */
  durationDays?: number;
  doses: readonly DoseSpec[];
  route: keyof typeof ROUTES;
  prescriber: StaffKey;
  registrar?: StaffKey;
  /** The contact (plan number n) the prescription was written at. */
  contact?: number;
}

const tablets = (...times: string[]): DoseSpec[] => times.map((time) => ({ time, min: '1', max: '1', unit: 'st' }));

export const PRESCRIPTIONS: Readonly<Record<string, readonly PrescriptionSpec[]>> = {
  '191212121212': [
    { treatmentId: '00091870', day: -540, time: '0935', product: 'warfarin', exchangeAllowed: false,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Förmaksflimmer & tidigare lungemboli',
      goal: 'PK(INR) 2,0\u20133,0', whenNeeded: false, dosageText: 'Enligt ordination från AK-mottagningen',
      dosageShort: 'Enl. AK-schema', doses: tablets('1800'), route: 'oral', prescriber: 'doris', registrar: 'sven' },
    { treatmentId: '00098765', day: -95, time: '1035', product: 'insulin', exchangeAllowed: false,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Diabetes mellitus typ 2', goal: 'HbA1c < 53',
      whenNeeded: false, dosageText: '6\u201310 E subkutant till måltid, 3 gånger dagligen', dosageShort: '6\u201310 E x 3',
      doses: ['0730', '1200', '1800'].map((time) => ({ time, min: '6', max: '10', unit: 'E' })),
      route: 'subcutaneous', prescriber: 'doris', contact: 51 },
    { treatmentId: '00087001', day: -700, time: '1140', product: 'paracetamol', exchange: 'paracetamolGeneric',
      exchangeAllowed: true, prescriptionType: 'E-recept', medicationType: 'Vid behov',
      reason: 'Smärta & feber efter tandextraktion', whenNeeded: true, conditionalText: 'Vid smärta, högst 4 gånger per dygn',
      dosageText: '1\u20132 tabletter vid behov, högst 8 per dygn', dosageShort: '1\u20132 vb, max 8/d', durationDays: 7,
      doses: [{ min: '1', max: '2', unit: 'st' }], route: 'oral', prescriber: 'asa', registrar: 'asa', contact: 55 },
    { treatmentId: '00091234', day: -430, time: '0830', invalidatedAfter: 130, product: 'salbutamolNeb', exchangeAllowed: false,
      prescriptionType: 'Ordination', medicationType: 'Vid behov', reason: 'Astma', whenNeeded: true,
      conditionalText: 'Vid andnöd, högst 4 gånger per dygn', dosageText: '2 ml i nebulisator vid behov, högst 4 gånger/dygn',
      dosageShort: '2 ml vb, max 4/d', doses: [{ min: '2', max: '2', unit: 'ml' }], route: 'inhalation',
      prescriber: 'doris', contact: 53 },
  ],
  '198112189876': [
    { treatmentId: '00092410', day: -310, time: '1400', product: 'levotyroxin', exchangeAllowed: true,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Hypotyreos', whenNeeded: false,
      dosageText: '1 tablett på morgonen, fastande', dosageShort: '1x1', doses: tablets('0700'), route: 'oral',
      prescriber: 'doris', contact: 51 },
  ],
  '201701012393': [
    { treatmentId: '00093300', day: -400, time: '2150', product: 'salbutamolSpray', exchangeAllowed: false,
      prescriptionType: 'E-recept', medicationType: 'Vid behov', reason: 'Astma', whenNeeded: true,
      conditionalText: 'Vid andnöd', dosageText: '1\u20132 doser med spacer vid behov', dosageShort: '1\u20132 doser vb',
      doses: [{ min: '1', max: '2', unit: 'dos' }], route: 'inhalation', prescriber: 'bodil', contact: 51 },
  ],
  '194608632396': [
    { treatmentId: '00094150', day: -150, time: '1145', product: 'warfarin', exchangeAllowed: false,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Förmaksflimmer', goal: 'PK(INR) 2,0\u20133,0',
      whenNeeded: false, dosageText: 'Enligt doseringsschema', dosageShort: 'Enl. schema', doses: tablets('1800'),
      route: 'oral', prescriber: 'hassan' },
    { treatmentId: '00094160', day: -160, time: '2355', product: 'furosemid', exchangeAllowed: true,
      prescriptionType: 'Ordination', medicationType: 'Stående', reason: 'Hjärtsvikt', whenNeeded: false,
      dosageText: '1 tablett morgon och 1 vid lunch', dosageShort: '1+1', doses: tablets('0800', '1300'),
      route: 'oral', prescriber: 'hassan', contact: 51 },
    { treatmentId: '00094158', day: -158, time: '0915', invalidatedAfter: 143, product: 'metoprolol', exchangeAllowed: true,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Hjärtsvikt', whenNeeded: false,
      dosageText: '1 depottablett på morgonen', dosageShort: '1x1', doses: tablets('0800'), route: 'oral',
      prescriber: 'hassan' },
  ],
  '197305242385': [
    { treatmentId: '00096008', day: -220, time: '0920', product: 'sertralin', exchangeAllowed: true,
      prescriptionType: 'E-recept', medicationType: 'Stående', reason: 'Depression', goal: 'Förbättrad sömn & stämning',
      whenNeeded: false, dosageText: '1 tablett dagligen', dosageShort: '1x1', doses: tablets('0800'), route: 'oral',
      prescriber: 'doris', contact: 51 },
  ],
};

/** How the region words whether a pharmacy may exchange the product. */
export const exchangeText = (allowed: boolean): string => (allowed ? 'Utbyte tillåtet' : 'Utbyte ej tillåtet');
