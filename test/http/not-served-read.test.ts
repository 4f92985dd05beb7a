/**
 * Issue 35: an EHR declares a read it has no data for (NOT_SERVED, src/reads/read-sources.ts). The
 * read then answers `[]` after the usual patient check: an unknown patient is still refused, the
 * answer is audited, and nothing is asked of the EHR for the read itself. Here the diagnoses read is
 * declared not served by both kinds of EHR.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNKNOWN_PATIENT_ID } from '../../src/dev/demo-data/people.js';
import { NOT_SERVED } from '../../src/reads/read-sources.js';
import type * as SourceTable from '../../src/reads/source-table.js';
import { EHR_VARIANTS, startTestAppOn, type AnyEhr, type TestApp } from '../support/test-app.js';

vi.mock('../../src/reads/source-table.js', async (importActual) => {
  const actual = await importActual<typeof SourceTable>();
  return { READ_SOURCES: { ...actual.READ_SOURCES, getDiagnoses: { xml: NOT_SERVED, fhir: NOT_SERVED } } };
});

const ADULT = '191212121212';
const UNKNOWN = UNKNOWN_PATIENT_ID;

describe.each(EHR_VARIANTS)('issue 35: a read the %s EHR declares not served', (variant) => {
  let t: TestApp<AnyEhr>;
  beforeAll(async () => {
    t = await startTestAppOn(variant);
  });
  afterAll(() => t.close());

  it('answers [] to a known patient, audited', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(ADULT) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(t.audit.records.at(-1)).toMatchObject({ operation: 'getDiagnoses', patientId: ADULT, outcome: 'allowed' });
  });

  it('still refuses an unknown patient (403), as any read does', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/diagnoses/', token: await t.personToken(UNKNOWN) });
    expect(res.statusCode).toBe(403);
  });

  it('leaves the reads the EHR serves as they were', async () => {
    const res = await t.call({ method: 'GET', url: '/patients/labresults/', token: await t.personToken(ADULT) });
    expect(res.statusCode).toBe(200);
    expect((res.json() as unknown[]).length).toBeGreaterThan(0);
  });
});
