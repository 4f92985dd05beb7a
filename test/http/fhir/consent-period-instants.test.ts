// A Consent's period given with an offset names one instant, and the grant holds from that instant.
// The grant was read through the local time the instant shows: in autumn's repeated hour
// (2026-10-25 02:00–03:00 in Stockholm, first at +02:00, then at +01:00) 02:30+01:00 came back as the
// first 02:30, an hour before the patient asked the sharing to start. A local time without an offset
// is still passed on as written, so one the clocks skip in spring is refused by the grant's own check.
import { describe, expect, it } from 'vitest';
import { checkGrantRequest } from '../../../src/domain/proxies/grant-request.js';
import { asConsentRefusal, grantRequestOf, type ConsentContext } from '../../../src/http/fhir/consent-resource.js';
import { TEST_FHIR_IDS } from '../../support/test-app.js';

const ZONE = 'Europe/Stockholm';
const TOLVAN = '191212121212';
const MARTA = '198112189876';
const NOW = Date.parse('2026-10-01T08:00:00Z');
const ctx: ConsentContext = {
  ids: TEST_FHIR_IDS, zone: ZONE,
  classes: {
    classesOf: () => ['Observation', 'DiagnosticReport'].map((code) => ({ system: 'http://hl7.org/fhir/resource-types', code })),
    categoriesOf: () => ({ categories: ['LabResult'] }),
  },
};

const consent = (period: Record<string, string>): Record<string, unknown> => ({
  resourceType: 'Consent',
  patient: { reference: `Patient/${TEST_FHIR_IDS.patientId(TOLVAN)}` },
  provision: {
    period,
    actor: [{ reference: { identifier: { system: 'http://electronichealth.se/identifier/personnummer', value: MARTA } } }],
    class: [{ system: 'http://hl7.org/fhir/resource-types', code: 'Observation' }, { system: 'http://hl7.org/fhir/resource-types', code: 'DiagnosticReport' }],
  },
});

const grantOf = (period: Record<string, string>) =>
  checkGrantRequest(grantRequestOf(consent(period), `Patient/${TEST_FHIR_IDS.patientId(TOLVAN)}`, ctx), TOLVAN, NOW, ZONE, { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 });

describe('a Consent period with an offset is the instant it names', () => {
  it('in autumn\'s repeated hour, each of the two 02:30s', () => {
    for (const start of ['2026-10-25T02:30:00+02:00', '2026-10-25T02:30:00+01:00', '2026-10-25T00:30:00Z', '2026-10-25T01:30:00Z']) {
      expect([start, grantOf({ start }).validFromMs]).toEqual([start, Date.parse(start)]);
    }
    // An end covers every millisecond of its last second.
    const end = '2026-10-25T02:30:00+01:00';
    expect(grantOf({ end }).validToMs).toBe(Date.parse(end) + 999);
  });

  it('a date alone is its whole local day; a local time is read in the zone, and one the clocks skip is refused', () => {
    expect(grantOf({ start: '2026-10-25', end: '2026-10-25' })).toMatchObject({
      validFromMs: Date.parse('2026-10-25T00:00:00+02:00'), validToMs: Date.parse('2026-10-25T23:59:59.999+01:00'),
    });
    // A year, or a year and month, is the whole of it too (docs/proxies.md says so).
    expect(grantOf({ end: '2027' }).validToMs).toBe(Date.parse('2027-12-31T23:59:59.999+01:00'));
    expect(grantOf({ end: '2027-02' }).validToMs).toBe(Date.parse('2027-02-28T23:59:59.999+01:00'));
    expect(grantOf({ start: '2026-12-01T08:00:00' }).validFromMs).toBe(Date.parse('2026-12-01T08:00:00+01:00'));
    expect(() => grantOf({ start: '2027-03-28T02:30:00' })).toThrow(/clocks skip/);
  });

  // Hostile review: an offset of +99:00 was read (+15:00, +14:01 too), an end without seconds covered its
  // whole minute, a start with a fraction opened at the second before it, and an end's fraction covered the
  // rest of its second. Failed before: each taken, as described.
  it('is a FHIR dateTime: seconds, an offset within ±14:00; never wider than written', () => {
    for (const end of ['2027-01-01T10:00:00+99:00', '2027-01-01T10:00:00+15:00', '2027-01-01T10:00:00+14:01', '2027-01-01T10:00+01:00',
      '2027-01-01T10:00:60+01:00', '2027-01-01T10:00:00.500', '2027-01-01T24:00:00+01:00',
      // Without an offset too: 24:00 and 30 February got the COS door's "without a time zone" (hostile review).
      '2027-01-01T24:00:00', '2027-02-30T10:00:00', '2027-01-01T10:60:00']) {
      expect([end, (() => { try { grantOf({ end }); return 'taken'; } catch (err) { return (err as Error).message; } })()])
        .toEqual([end, 'Consent.provision.period.end must be a FHIR dateTime, e.g. 2026-12-01T08:00:00+01:00.']);
    }
    expect(grantOf({ end: '2027-01-01T10:00:00-14:00' }).validToMs).toBe(Date.parse('2027-01-02T00:00:00Z') + 999);
    expect(grantOf({ start: '2026-12-01T08:00:00.5+01:00' }).validFromMs).toBe(Date.parse('2026-12-01T08:00:01+01:00'));
    expect(grantOf({ start: '2026-12-01T08:00:00.000+01:00' }).validFromMs).toBe(Date.parse('2026-12-01T08:00:00+01:00'));
    expect(grantOf({ end: '2026-12-01T08:00:00.100+01:00' }).validToMs).toBe(Date.parse('2026-12-01T07:59:59.999+01:00'));
    expect(grantOf({ start: '2026-12-01T08:00:00.000' }).validFromMs).toBe(Date.parse('2026-12-01T08:00:00+01:00'));
  });

  it('names the Consent\'s own elements when the end is before the start, and a past end as past', () => {
    const refusal = (period: Record<string, string>): string => { try { grantOf(period); return 'taken'; } catch (err) { return (asConsentRefusal(err) as Error).message; } };
    expect(refusal({ start: '2026-12-02T00:00:00+01:00', end: '2026-12-01T00:00:00+01:00' }))
      .toBe('Consent.provision.period.end must not be before Consent.provision.period.start.');
    // A start a clock's skew back is now, and an end after it but past is past (it said "before validFrom").
    expect(refusal({ start: new Date(NOW - 4 * 60_000).toISOString(), end: new Date(NOW - 2 * 60_000).toISOString() }))
      .toMatch(/^Consent\.provision\.period\.end is in the past/);
  });
});
