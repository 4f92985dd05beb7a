// A Consent's period given with an offset names one instant, and the grant holds from that instant.
// The grant was read through the local time the instant shows: in autumn's repeated hour
// (2026-10-25 02:00–03:00 in Stockholm, first at +02:00, then at +01:00) 02:30+01:00 came back as the
// first 02:30, an hour before the patient asked the sharing to start. A local time without an offset
// is still passed on as written, so one the clocks skip in spring is refused by the grant's own check.
import { describe, expect, it } from 'vitest';
import { checkGrantRequest } from '../../../src/domain/proxies/grant-request.js';
import { grantRequestOf, type ConsentContext } from '../../../src/http/fhir/consent-resource.js';
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
  checkGrantRequest(grantRequestOf(consent(period), `Patient/${TEST_FHIR_IDS.patientId(TOLVAN)}`, ctx), TOLVAN, NOW, ZONE, { invitationDays: 7, maxGrants: 10 });

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
    expect(grantOf({ start: '2026-12-01T08:00:00' }).validFromMs).toBe(Date.parse('2026-12-01T08:00:00+01:00'));
    expect(() => grantOf({ start: '2027-03-28T02:30:00' })).toThrow(/clocks skip/);
  });
});
