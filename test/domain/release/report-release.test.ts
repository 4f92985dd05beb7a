/**
 * Issue 23: the release policy over lab results and diagnoses (docs/contract.md#only-what-may-be-released),
 * with a fixed clock: secrecy levels of the item and of its contact, not yet signed (a diagnosis
 * without DiagnosisSignDateTime, a report with a result not attested), the days since signing or
 * the latest attestation across midnight and a DST change, care units, the guardian age limit.
 */
import { describe, expect, it } from 'vitest';
import type { AccessBasis } from '../../../src/domain/access/relationship.js';
import type { ChemistryReportEhrExtract, DiagnosisEhrExtract, Diagnoses, LabResult } from '../../../src/domain/records/index.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';
import { releaseToCaller } from '../../../src/domain/use-cases/read-patient-data.js';
import { deepFreeze } from '../records/builders.js';
import { BARNAHUS, VC, ZONE } from './release-builders.js';

const ADULT = '191212121212';
/** Born 15 November 2013: 13 on 15 November 2026. */
const CHILD = '201311152381';

function report(id: string, attested: readonly (string | undefined)[], o: { secrecy?: string; contact?: string[]; unit?: typeof VC } = {}): ChemistryReportEhrExtract {
  return {
    timeCreated: { value: '20261101080000' },
    report: {
      reportId: id,
      ...(o.secrecy === undefined ? {} : { secrecyClassification: o.secrecy }),
      testResult: attested.map((at, i) => ({ testId: `${id}-${i}`, result: '5,4', ...(at === undefined ? {} : { attestDateTime: { value: at } }) })),
    },
    ...(o.contact === undefined ? {} : { hCMContact: { contactSecrecyLevels: o.contact.map((secrecyLevel) => ({ secrecyLevel })) } }),
    accessZoneUnit: { unitID: o.unit ?? VC },
    attestingCareProviders: { attestingCareProvider: [] },
    careProviders: { careProvider: [] },
    units: { unit: [] },
  };
}

function diagnosis(id: string, signed: string | undefined, o: { levels?: string[]; template?: string[]; contact?: string[]; unit?: typeof VC } = {}): DiagnosisEhrExtract {
  return {
    ehrId: { extension: id },
    timeCreated: { value: '20261101080000' },
    diagnosisMetaData: {
      ...(signed === undefined ? {} : { DiagnosisSignDateTime: { value: signed } }),
      DiagnosisSecrecyLevels: { secrecyLevel: o.levels ?? ['Normal'] },
      DiagnosisTemplateSecrecyLevels: { secrecyLevel: o.template ?? [] },
    },
    ...(o.contact === undefined ? {} : { hCMContact: { contactSecrecyLevels: { secrecyLevel: o.contact } } }),
    accessZoneUnit: { unitID: o.unit ?? VC },
    units: { unit: [] },
    careProviders: { careProvider: [] },
    diagnoses: { diagnosis: [{ diagnosisCode: 'J45.9', diagnosis: [], action: [] }], action: [] },
  };
}

const labs = (...extracts: ChemistryReportEhrExtract[]): LabResult[] => [{ chemistryReportEHRExtract: extracts }];
const dxs = (...extracts: DiagnosisEhrExtract[]): Diagnoses[] => [{ diagnosisEHRExtract: extracts }];
const at = (compact: string): number => compactToEpochMs(compact, ZONE);
const ctx = (now: string, basis: AccessBasis = 'self', patientId = ADULT) => ({ basis, patientId, now: at(now), zone: ZONE });
const reportIds = (r: LabResult[]): string[] => r.flatMap((x) => x.chemistryReportEHRExtract.map((e) => e.report?.reportId ?? ''));
const dxIds = (r: Diagnoses[]): string[] => r.flatMap((x) => x.diagnosisEHRExtract.map((e) => e.ehrId?.extension ?? ''));

describe('issue 23: the release policy over lab results', () => {
  it('withholds a report of a listed secrecy classification or contact secrecy level, whole', () => {
    const policy: ReleasePolicy = { noteSecrecyLevels: { levels: ['Sekretess'] }, contactSecrecyLevels: { levels: ['Känslig'] } };
    const data = deepFreeze(labs(
      report('open', ['20261101090000']), report('secret', ['20261101090000'], { secrecy: ' sekretess ' }),
      report('contact', ['20261101090000'], { contact: ['Normal', 'Känslig'] }),
    ));
    const released = releaseToCaller('getLabResults', data, policy, ctx('20261120120000'));
    expect([reportIds(released.records), released.withheld]).toEqual([['open'], 2]);
  });

  it('withholds a report any of whose results is not attested (or that has none) when unsigned ones are withheld', () => {
    const policy: ReleasePolicy = { unsignedNotes: { withhold: true } };
    const data = deepFreeze(labs(report('attested', ['20261101090000', '20261101091000']), report('partly', ['20261101090000', undefined]), report('empty', [])));
    const released = releaseToCaller('getLabResults', data, policy, ctx('20261120120000'));
    expect([reportIds(released.records), released.withheld]).toEqual([['attested'], 2]);
  });

  it('counts the signing delay from the latest attestation, to the same wall-clock time days later, across midnight and DST', () => {
    const policy: ReleasePolicy = { signingDelay: { days: 14 } };
    // Attested at 23:50 on 20 October (CEST) and 00:10 on 21 October: across midnight, and 14 days on is across the DST change.
    const data = deepFreeze(labs(report('late', ['20261020235000', '20261021001000']), report('early', ['20261020235000'])));
    const before = releaseToCaller('getLabResults', data, policy, ctx('20261103234959'));
    expect(reportIds(before.records)).toEqual([]);
    const between = releaseToCaller('getLabResults', data, policy, ctx('20261103235000'));
    expect(reportIds(between.records)).toEqual(['early']);
    const after = releaseToCaller('getLabResults', data, policy, ctx('20261104001000'));
    expect(reportIds(after.records)).toEqual(['late', 'early']);
  });

  it('withholds a report of a listed care unit, and from the age limit all of a guardian\'s', () => {
    const units: ReleasePolicy = { careUnits: { unitIds: [BARNAHUS] } };
    const data = deepFreeze(labs(report('vc', ['20261101090000']), report('barnahus', ['20261101090000'], { unit: BARNAHUS })));
    expect(reportIds(releaseToCaller('getLabResults', data, units, ctx('20261120120000')).records)).toEqual(['vc']);
    const age: ReleasePolicy = { guardianAgeLimit: { operations: { getLabResults: 13 } } };
    expect(releaseToCaller('getLabResults', data, age, ctx('20261114120000', 'guardian', CHILD)).withheld).toBe(0);
    expect(releaseToCaller('getLabResults', data, age, ctx('20261115000000', 'guardian', CHILD))).toEqual({ records: [], withheld: 2 });
    expect(releaseToCaller('getLabResults', data, age, ctx('20261115000000', 'self', CHILD)).withheld).toBe(0);
  });
});

describe('issue 23: the release policy over diagnoses', () => {
  it('withholds a diagnosis with a listed diagnosis or template secrecy level, or contact level', () => {
    const policy: ReleasePolicy = { noteSecrecyLevels: { levels: ['Sekretess'] }, contactSecrecyLevels: { levels: ['Känslig'] } };
    const data = deepFreeze(dxs(
      diagnosis('open', '20261101090000'), diagnosis('own', '20261101090000', { levels: ['Normal', 'Sekretess'] }),
      diagnosis('template', '20261101090000', { template: ['Sekretess'] }), diagnosis('contact', '20261101090000', { contact: ['Känslig'] }),
    ));
    const released = releaseToCaller('getDiagnoses', data, policy, ctx('20261120120000'));
    expect([dxIds(released.records), released.withheld]).toEqual([['open'], 3]);
  });

  it('withholds an unsigned diagnosis, and one signed fewer days ago than the delay (from DiagnosisSignDateTime, DST included)', () => {
    const unsigned = releaseToCaller('getDiagnoses', deepFreeze(dxs(diagnosis('signed', '20261101090000'), diagnosis('unsigned', undefined))),
      { unsignedNotes: { withhold: true } }, ctx('20261120120000'));
    expect(dxIds(unsigned.records)).toEqual(['signed']);
    // Signed at 02:30 on the day summer time ends (25 October 2026, the first 02:30): released at 02:30 seven days later.
    const delayed = deepFreeze(dxs(diagnosis('autumn', '20261025023000'), diagnosis('unsigned', undefined)));
    const policy: ReleasePolicy = { signingDelay: { days: 7 } };
    expect(dxIds(releaseToCaller('getDiagnoses', delayed, policy, ctx('20261101022959')).records)).toEqual([]);
    expect(dxIds(releaseToCaller('getDiagnoses', delayed, policy, ctx('20261101023000')).records)).toEqual(['autumn']);
  });

  it('answers no empty element when every diagnosis was withheld', () => {
    const released = releaseToCaller('getDiagnoses', deepFreeze(dxs(diagnosis('b', '20261101090000', { unit: BARNAHUS }))),
      { careUnits: { unitIds: [BARNAHUS] } }, ctx('20261120120000'));
    expect(released).toEqual({ records: [], withheld: 1 });
  });
});
