/**
 * Threat 63 from the page's side (docs/proxies.md): reading for someone who shared only some parts of
 * their record, the app asks the service for those parts alone (app/src/shared-parts.ts), never for
 * the access log, which a grant never opens, and the summary only with everything. Every part asked
 * for refused (403) says the person no longer shares it. The service decides each read either way
 * (the browser test checks its answers): this keeps refusals out of the other person's log.
 */
import { describe, expect, it } from 'vitest';
import { allRefused, readsPart } from '../../app/src/shared-parts.js';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { categoryOf } from '../../src/domain/proxies/categories.js';

const SECTIONS = ['getPatient', 'getAppointments', 'getJournalNotes', 'getMedications', 'getDiagnoses', 'getLabResults', 'summary', 'accessLog'];

describe('threat 63: a proxy\'s page asks only for what was shared', () => {
  it('reads every part of one\'s own record, or a registry delegate\'s', () => {
    expect(SECTIONS.filter((s) => readsPart(undefined, s))).toEqual(SECTIONS);
  });

  it('asks for the lab results alone when only they were shared', () => {
    expect(SECTIONS.filter((s) => readsPart(['LabResult'], s))).toEqual(['getLabResults']);
    expect(SECTIONS.filter((s) => readsPart(['Appointment', 'MedicationPrescription'], s))).toEqual(['getAppointments', 'getMedications']);
  });

  it('asks for each read by its own category, as the service decides it', () => {
    for (const read of READ_NAMES) expect([read, readsPart([categoryOf(read)], read)]).toEqual([read, true]);
    for (const read of READ_NAMES) expect([read, readsPart(['Nothing'], read)]).toEqual([read, false]);
  });

  it('never asks for the access log, even when everything is shared', () => {
    expect(SECTIONS.filter((s) => !readsPart(['*'], s))).toEqual(['accessLog']);
  });

  it('says every part asked for was refused only when the service refused them all', () => {
    const refused = { ok: false, status: 403, message: '403' } as const;
    const notShared = { ok: false, message: '', notShared: true } as const;
    expect(allRefused([refused, notShared, refused])).toBe(true);
    expect(allRefused([refused, { ok: true, value: 1 }])).toBe(false);
    expect(allRefused([refused, { ok: false, status: 500, message: '500' }])).toBe(false);
    expect(allRefused([notShared])).toBe(false);
  });
});
