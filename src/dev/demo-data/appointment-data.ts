import type { AppointmentSpec, EncounterSpec, RegisteredBookingSpec } from './appointment-specs.js';

/**
 * Who sees whom, and when, as day offsets from today. Listed out of time order on purpose:
 * upstream never sorts, the service must. The drop-in entries (no `time`) start 45 minutes after
 * the service starts, so arrival and payment can be tried at once.
 */

const TOLVAN: AppointmentSpec[] = [
  { n: 11, day: -3, time: '0930', minutes: 30, staff: 'asa', service: 'Årlig undersökning',
    info: 'Kom 10 minuter före. Ta med <legitimation> & ev. frikort.',
    price: { price: '250.00', reduction: '0', reason: '' }, any: { Channel: '1177', ExternalBookingRef: '000042' } },
  { n: 1, day: 0, minutes: 30, staff: 'sven', service: 'Provtagning och blodtryck',
    info: 'Anmäl dig i incheckningsautomaten när du kommer.', price: { price: '200', reduction: '0' } },
  { n: 22, day: 9, time: '0900', minutes: 30, staff: 'doris', service: 'Läkarbesök diabetes',
    info: 'Provtagning & läkarbesök. Kom fastande.', price: { price: '200', reduction: '200', reason: 'Frikort' } },
  { n: 12, day: -10, time: '1000', minutes: 20, staff: 'doris', service: 'Videobesök läkare',
    video: { others: ['sven', 'student'] } },
  { n: 2, day: 0, time: '0800', minutes: 20, staff: 'doris', service: 'Läkarbesök blodsocker',
    price: { price: '200.00', reduction: '0' } },
  { n: 21, day: 2, time: '1315', minutes: 30, staff: 'paivi', service: 'Återbesök psykolog',
    video: { others: ['ali'], onPremise: true } },
  { n: 13, day: -24, time: '1415', minutes: 45, staff: 'fredrik', service: 'Fysioterapi knä',
    price: { price: '150', reduction: '0' } },
  { n: 3, day: 0, time: '1300', minutes: 30, staff: 'paivi', service: 'Samtal psykolog (video)', video: {} },
  { n: 24, day: 61, time: '0830', minutes: 15, staff: 'fredrik', service: 'Uppföljning knä & höft', video: {} },
  { n: 14, day: -52, time: '0840', minutes: 15, staff: 'sven', service: 'Provtagning',
    price: { price: '100', reduction: '100', reason: 'Frikort' } },
  { n: 4, day: 0, time: '1530', minutes: 45, staff: 'fredrik', service: 'Fysioterapi knä',
    info: 'Ombyte och handduk.', price: { price: '150.00', reduction: '0' } },
  { n: 23, day: 23, time: '1130', minutes: 60, staff: 'asa', service: 'Lagning', price: { price: '850.00', reduction: '0' },
    any: { Channel: 'Telefon', Kallelse: 'Brev' } },
];

const LILLA: AppointmentSpec[] = [
  { n: 11, day: -20, time: '1400', minutes: 30, staff: 'bodil', service: 'Tillväxtkontroll' },
  { n: 1, day: 0, minutes: 20, staff: 'bodil', service: 'Vaccination', info: 'Ta med vaccinationskortet.' },
  { n: 21, day: 14, time: '1030', minutes: 20, staff: 'bodil', service: 'Uppföljning astma', video: {} },
  { n: 2, day: 0, time: '1015', minutes: 30, staff: 'asa', service: 'Undersökning barn & ungdom' },
  { n: 12, day: -90, time: '0830', minutes: 15, staff: 'sven', service: 'Vaccination' },
  { n: 22, day: 45, time: '1300', minutes: 30, staff: 'asa', service: 'Fluorlackning' },
];

export const APPOINTMENTS: Readonly<Record<string, readonly AppointmentSpec[]>> = {
  '191212121212': TOLVAN,
  '198112189876': [
    { n: 21, day: 12, time: '0745', minutes: 45, staff: 'asa', service: 'Tandhygienist', price: { price: '450.00', reduction: '0' } },
    { n: 11, day: -30, time: '1610', minutes: 30, staff: 'doris', service: 'Hälsokontroll', price: { price: '200', reduction: '0' } },
  ],
  '201701012393': LILLA,
  '200404122384': [
    { n: 21, day: 20, time: '1100', minutes: 20, staff: 'doris', service: 'Videobesök läkare', video: {} },
    { n: 11, day: -60, time: '1530', minutes: 45, staff: 'ylva', service: 'Samtal' },
  ],
  '194608632396': [
    { n: 22, day: 33, time: '1015', minutes: 15, staff: 'sven', service: 'INR-kontroll', price: { price: '100', reduction: '0' } },
    { n: 11, day: -15, time: '0900', minutes: 30, staff: 'hassan', service: 'Återbesök hjärtsvikt',
      price: { price: '300', reduction: '0' } },
    { n: 21, day: 6, time: '1400', minutes: 20, staff: 'hassan', service: 'Videouppföljning hjärtsvikt', video: {} },
  ],
  '197305242385': [
    { n: 11, day: -8, time: '1300', minutes: 45, staff: 'paivi', service: 'Samtal psykolog' },
    { n: 22, day: 18, time: '1500', minutes: 30, staff: 'doris', service: 'Läkarbesök', price: { price: '200', reduction: '0' } },
    { n: 21, day: 4, time: '0930', minutes: 45, staff: 'paivi', service: 'Samtal psykolog (video)', video: {} },
  ],
};

export const ENCOUNTERS: Readonly<Record<string, readonly EncounterSpec[]>> = {
  '191212121212': [
    { n: 51, day: -95, time: '0930', minutes: 45, type: 'BESOK', status: 'FINISHED', staff: 'doris', reason: 'Diabeteskontroll' },
    { n: 52, day: 'dst', time: '0115', endDay: 3, minutes: 585, type: 'INSKRIVNING', status: 'FINISHED', staff: 'sven',
      unit: 'avd23', reason: 'Observation efter fall i hemmet' },
    { n: 53, day: -430, time: '0810', minutes: 8, type: 'TELEFON', status: 'FINISHED', staff: 'doris', reason: '' },
    { n: 54, day: -38, time: '1200', type: 'BREV', status: 'FINISHED', staff: 'doris', reason: 'Provsvar & fortsatt planering' },
    { n: 55, day: -700, time: '1030', minutes: 60, type: 'BESOK', status: 'FINISHED', staff: 'asa', reason: 'Tandextraktion' },
    { n: 56, day: 16, time: '1000', minutes: 45, type: 'BESOK', status: 'CANCELLED', staff: 'fredrik',
      reason: 'Avbokad av patienten' },
  ],
  '198112189876': [
    { n: 51, day: -310, time: '1345', minutes: 10, type: 'TELEFON', status: 'FINISHED', staff: 'sven', reason: 'Rådgivning' },
  ],
  '201701012393': [
    { n: 51, day: -400, time: '1915', minutes: 140, type: 'BESOK', status: 'FINISHED', staff: 'bodil', unit: 'akut',
      reason: 'Astmaanfall' },
    // A contact examples/release-policy.json withholds from her guardian (by unit and by secrecy level).
    { n: 52, day: -45, time: '1000', minutes: 90, type: 'BESOK', status: 'FINISHED', staff: 'karin', reason: 'Samtal',
      secrecy: 'Sekretess' },
  ],
  '200404122384': [
    { n: 51, day: -640, time: '1100', minutes: 30, type: 'BESOK', status: 'FINISHED', staff: 'doris', reason: 'Idrottsskada fotled' },
  ],
  '194608632396': [
    { n: 51, day: -160, time: '2240', endDay: 5, minutes: 0, type: 'INSKRIVNING', status: 'FINISHED', staff: 'hassan',
      reason: 'Hjärtsvikt, försämring' },
  ],
  '197305242385': [
    { n: 51, day: -220, time: '0900', minutes: 15, type: 'DIGITALT', status: 'FINISHED', staff: 'doris', reason: 'Chattbesök' },
  ],
};

export const REGISTERED_BOOKINGS: Readonly<Record<string, readonly RegisteredBookingSpec[]>> = {
  '191212121212': [
    { n: 31, day: 5, time: '0815', minutes: 45, staff: 'fredrik', info: 'Ombyte och handduk.', channel: 'Webbtidbok' },
    { n: 32, day: 40, time: '1020', minutes: 60, staff: 'hassan', info: 'Arbets-EKG: ta med träningskläder & vattenflaska.', channel: '1177' },
  ],
  '201701012393': [
    { n: 31, day: 7, time: '1500', minutes: 30, staff: 'bodil', info: 'Spirometri, ta med inhalator.', channel: '1177' },
  ],
};
