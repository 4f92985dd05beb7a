import type { StaffKey, UnitKey } from '../../dev/demo-data/units.js';

/** What the demo lab reports say; labresults.ts turns them into ChemistryReportEHRExtracts. */

export interface TestSpec {
  name: string;
  /** NPU code (the vendor's `IUPAC`). */
  npu?: string;
  /** Text however numeric: "5,4", "<5", "Positiv". */
  result: string;
  unit?: string;
  range?: string;
  pathological: boolean;
  /** Absent: not attested yet (a preliminary result). */
  attestedAfter?: number;
  commentary?: string;
}

export interface ReportSpec {
  n: number;
  /** Days from today, or 'dst': the latest daylight-saving change day. */
  day: number | 'dst';
  /** Local `hhmm` the sample was taken; the report is made (timeCreated) `madeAfter` minutes later. */
  time: string;
  madeAfter: number;
  status: 'Slutsvar' | 'Preliminärt';
  requester: StaffKey;
  requestingUnit: UnitKey;
  priority: 'Rutin' | 'Akut';
  question?: string;
  commentary?: string;
  /** The report's secrecyClassification; absent: Normal. */
  secrecy?: string;
  tests: readonly TestSpec[];
}

const glucose = (result: string, pathological = false): TestSpec =>
  ({ name: 'P-Glukos', npu: 'NPU02192', result, unit: 'mmol/L', range: '4,0–6,0', pathological, attestedAfter: 60 });
const hb = (result: string, range: string, pathological = false): TestSpec =>
  ({ name: 'B-Hemoglobin (Hb)', npu: 'NPU28309', result, unit: 'g/L', range, pathological, attestedAfter: 60 });
const crp = (result: string, pathological: boolean): TestSpec =>
  ({ name: 'P-CRP', npu: 'NPU19748', result, unit: 'mg/L', range: '<5', pathological, attestedAfter: 45 });
const hba1c = (result: string, pathological: boolean): TestSpec =>
  ({ name: 'B-HbA1c', npu: 'NPU27300', result, unit: 'mmol/mol', range: '<53', pathological, attestedAfter: 60 });

/**
 * The same tests taken `day` days from today with other results (each `[result, pathological]`, in
 * the report's order), final and attested: every test has a series over months, so a plot shows a
 * trend (issue 47 item 9; src/dev/demo-data/consistency.ts checks it).
 */
function earlier(report: ReportSpec, n: number, day: number, results: readonly (readonly [string, boolean])[]): ReportSpec {
  const { question: _question, commentary: _commentary, ...rest } = report;
  return {
    ...rest, n, day, status: 'Slutsvar',
    tests: report.tests.map(({ commentary: _c, ...t }, i) => {
      const [result, pathological] = results[i] ?? [t.result, t.pathological];
      return { ...t, result, pathological, attestedAfter: t.attestedAfter ?? 60 };
    }),
  };
}

const TOLVAN_FASTING: ReportSpec = {
  n: 1, day: -40, time: '0805', madeAfter: 205, status: 'Slutsvar', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  question: 'Diabeteskontroll & trötthet', commentary: 'Fastande prov.\nTaget kl. 08.05 på vårdcentralen.',
  tests: [
    glucose('5,4'),
    hb('128', '134–170', true),
    {
      name: 'P-Kreatinin', npu: 'NPU04998', result: '112', unit: 'µmol/L', range: '60–105', pathological: true, attestedAfter: 60,
      commentary: 'eGFR beräknat: <60 mL/min/1,73 m² – kontrollera om 3 mån',
    },
    hba1c('51', false),
  ],
};
const TOLVAN_LIPIDS: ReportSpec = {
  n: 2, day: -20, time: '0745', madeAfter: 240, status: 'Slutsvar', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  tests: [
    { name: 'P-Kolesterol', npu: 'NPU01566', result: '5,9', unit: 'mmol/L', range: '<5,0', pathological: true, attestedAfter: 90 },
    { name: 'P-LDL-Kolesterol', npu: 'NPU01568', result: '3,8', unit: 'mmol/L', range: '<3,0', pathological: true, attestedAfter: 90 },
    { name: 'P-HDL-Kolesterol', npu: 'NPU01567', result: '1,3', unit: 'mmol/L', range: '>1,0', pathological: false, attestedAfter: 90 },
  ],
};
const TOLVAN_EMERGENCY: ReportSpec = {
  n: 3, day: 'dst', time: '0220', madeAfter: 25, status: 'Slutsvar', requester: 'student', requestingUnit: 'akut', priority: 'Akut',
  tests: [
    crp('<5', false),
    { name: 'B-Leukocyter', npu: 'NPU02593', result: '11,2', unit: '×10⁹/L', range: '3,5–8,8', pathological: true, attestedAfter: 40 },
  ],
};
const TOLVAN_URINE: ReportSpec = {
  n: 4, day: -2, time: '0930', madeAfter: 180, status: 'Preliminärt', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  commentary: 'Delsvar: odlingen är inte klar.',
  tests: [
    { name: 'U-Odling', result: 'Växt av gramnegativa stavar >100 000 CFU/mL', pathological: true, commentary: 'Resistensbestämning följer' },
    { name: 'U-Sticka, nitrit', result: 'Positiv', pathological: true, attestedAfter: 30 },
  ],
};
const TOLVAN_LITHIUM: ReportSpec = {
  n: 5, day: -60, time: '1010', madeAfter: 1440, status: 'Slutsvar', requester: 'paivi', requestingUnit: 'psyk', priority: 'Rutin',
  secrecy: 'Sekretess',
  tests: [{ name: 'S-Litium', npu: 'NPU02607', result: '0,7', unit: 'mmol/L', range: '0,5–0,8', pathological: false, attestedAfter: 120 }],
};
const MARTA_CHECK: ReportSpec = {
  n: 1, day: -35, time: '0815', madeAfter: 150, status: 'Slutsvar', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  tests: [glucose('5,1'), { name: 'S-TSH', npu: 'NPU03577', result: '2,1', unit: 'mIE/L', range: '0,4–4,0', pathological: false, attestedAfter: 60 }],
};
const LILLA_ANAEMIA: ReportSpec = {
  n: 1, day: -25, time: '1020', madeAfter: 90, status: 'Slutsvar', requester: 'bodil', requestingUnit: 'barn', priority: 'Rutin',
  question: 'Trötthet, blekhet',
  tests: [hb('108', '105–145'), { name: 'S-Ferritin', npu: 'NPU19763', result: '9', unit: 'µg/L', range: '12–140', pathological: true, attestedAfter: 120 }],
};
const ANTON_SCREENING: ReportSpec = {
  n: 1, day: -90, time: '0900', madeAfter: 120, status: 'Slutsvar', requester: 'ylva', requestingUnit: 'ungdom', priority: 'Rutin',
  tests: [{ name: 'U-Chlamydia trachomatis (PCR)', result: 'Negativ', pathological: false, attestedAfter: 1440 }],
};
const GOSTA_HEART: ReportSpec = {
  n: 1, day: -15, time: '0750', madeAfter: 200, status: 'Slutsvar', requester: 'hassan', requestingUnit: 'hjarta', priority: 'Rutin',
  tests: [
    { name: 'P-NT-proBNP', npu: 'NPU21571', result: '950', unit: 'ng/L', range: '<300', pathological: true, attestedAfter: 90 },
    { name: 'P-Kalium', npu: 'NPU03230', result: '4,1', unit: 'mmol/L', range: '3,5–4,4', pathological: false, attestedAfter: 90 },
    { name: 'P-Natrium', npu: 'NPU03429', result: '137', unit: 'mmol/L', range: '137–145', pathological: false, attestedAfter: 90 },
  ],
};
const SARA_CHECK: ReportSpec = {
  n: 1, day: -50, time: '0830', madeAfter: 120, status: 'Slutsvar', requester: 'doris', requestingUnit: 'vc', priority: 'Rutin',
  tests: [hb('131', '117–153'), crp('8', true)],
};

export const REPORTS: Readonly<Record<string, readonly ReportSpec[]>> = {
  // Tolvan: a fasting panel with pathological values, a lipid panel, a preliminary culture whose
  // first result is not attested yet, an emergency sample on the day of a DST change, and a report
  // of secrecy level Sekretess that the example release policy withholds; each test taken before too.
  '191212121212': [
    TOLVAN_FASTING, TOLVAN_LIPIDS, TOLVAN_EMERGENCY, TOLVAN_URINE, TOLVAN_LITHIUM,
    // The HbA1c of 52 the annual check's note (day -95) names.
    earlier(TOLVAN_FASTING, 6, -96, [['6,2', true], ['135', false], ['104', false], ['52', false]]),
    earlier(TOLVAN_FASTING, 7, -230, [['7,1', true], ['141', false], ['98', false], ['58', true]]),
    earlier(TOLVAN_LIPIDS, 8, -120, [['6,4', true], ['4,2', true], ['1,2', false]]),
    earlier(TOLVAN_LIPIDS, 9, -300, [['6,8', true], ['4,6', true], ['1,1', false]]),
    earlier(TOLVAN_EMERGENCY, 10, -150, [['12', true], ['9,4', true]]),
    earlier(TOLVAN_EMERGENCY, 11, -320, [['<5', false], ['6,1', false]]),
    earlier(TOLVAN_URINE, 12, -180, [['Ingen växt', false], ['Negativ', false]]),
    earlier(TOLVAN_URINE, 13, -365, [['Ingen växt', false], ['Negativ', false]]),
    earlier(TOLVAN_LITHIUM, 14, -150, [['0,6', false]]),
    earlier(TOLVAN_LITHIUM, 15, -240, [['0,9', true]]),
  ],
  '198112189876': [
    MARTA_CHECK,
    earlier(MARTA_CHECK, 2, -400, [['5,3', false], ['2,4', false]]),
    earlier(MARTA_CHECK, 3, -760, [['4,9', false], ['2,6', false]]),
  ],
  // Lilla: what her guardian sees until the age limit of the example release policy (13): her iron falling.
  '201701012393': [
    LILLA_ANAEMIA,
    earlier(LILLA_ANAEMIA, 2, -120, [['112', false], ['14', false]]),
    earlier(LILLA_ANAEMIA, 3, -300, [['118', false], ['21', false]]),
  ],
  '200404122384': [
    ANTON_SCREENING,
    earlier(ANTON_SCREENING, 2, -450, [['Negativ', false]]),
    earlier(ANTON_SCREENING, 3, -800, [['Negativ', false]]),
  ],
  '194608632396': [
    GOSTA_HEART,
    earlier(GOSTA_HEART, 2, -75, [['1400', true], ['4,4', false], ['136', true]]),
    earlier(GOSTA_HEART, 3, -158, [['2600', true], ['3,9', false], ['139', false]]),
  ],
  '197305242385': [
    SARA_CHECK,
    earlier(SARA_CHECK, 2, -200, [['128', false], ['<5', false]]),
    earlier(SARA_CHECK, 3, -420, [['135', false], ['<5', false]]),
  ],
};
