/** Each read's mapping of the demo bundle equals the contract's worked example (expected/). */
import { describe, expect, it } from 'vitest';
import { mapAppointments } from '../../../src/reads/appointments/fhir.js';
import { ResourceIndex } from '../../../src/adapters/ehr-fhir/resource-index.js';
import { mapRelationships, parseDelegationTag } from '../../../src/adapters/ehr-fhir/relationships.js';
import { checkedResource } from '../../../src/adapters/ehr-fhir/schemas/index.js';
import { mapDiagnoses } from '../../../src/reads/diagnoses/fhir.js';
import { mapJournalNotes } from '../../../src/reads/journal-notes/fhir.js';
import { mapLabResults } from '../../../src/reads/lab-results/fhir.js';
import { mapVideoMeetings } from '../../../src/reads/video-meetings/fhir.js';
import { DEMO_FHIR_SETTINGS } from '../../../src/dev/demo-data/fhir/bundle.js';
import { selectInRange } from '../../../src/domain/operations/table.js';
import { demoResources, expectedAnswer, FHIR_BASE, mapContext, readInput, TOLVAN } from './support/demo-bundle.js';

const ZONE = 'Europe/Stockholm';
const YEARS_2026_2027 = { from: '20260101000000', to: '20271231235959' };
const YEAR_2025 = { from: '20250101000000', to: '20251231235959' };

describe('the demo bundle mapped as the contract answers it', () => {
  it('booked appointments (operation 3)', () => {
    const items = mapAppointments(readInput(['Appointment']), mapContext());
    expect(selectInRange('getAppointments', items, YEARS_2026_2027, ZONE)).toStrictEqual(expectedAnswer('appointments.json'));
  });

  it('video meetings (operation 8)', () => {
    const items = mapVideoMeetings(readInput(['Appointment']), mapContext());
    expect(selectInRange('getVideoMeetings', items, YEARS_2026_2027, ZONE)).toStrictEqual(expectedAnswer('videomeetings.json'));
  });

  it('journal notes (operation 10)', () => {
    const items = mapJournalNotes(readInput(['Composition']), mapContext());
    expect(selectInRange('getJournalNotes', items, YEAR_2025, ZONE)).toStrictEqual(expectedAnswer('journalnotes.json'));
  });

  it('lab results (operation 11): one abnormal, one normal and one preliminary result, decimals as written', () => {
    const items = mapLabResults(readInput(['DiagnosticReport']), mapContext());
    expect(selectInRange('getLabResults', items, YEAR_2025, ZONE)).toStrictEqual(expectedAnswer('labresults.json'));
  });

  it('diagnoses (operation 12): an encounter diagnosis, and a problem with its procedure', () => {
    const items = mapDiagnoses(readInput(['Condition']), mapContext());
    expect(selectInRange('getDiagnoses', items, { from: '20200101000000', to: '20251231235959' }, ZONE)).toStrictEqual(expectedAnswer('diagnoses.json'));
  });

  it('the delegation registry of 191212121212: one current and one expired guardianship, never the next of kin', () => {
    const resources = demoResources();
    const index = new ResourceIndex(FHIR_BASE);
    for (const r of resources) index.add(r);
    // Every RelatedPerson, as a server that ignored the tag and identifier filters would answer.
    const matches = resources.filter((r) => r.resourceType === 'RelatedPerson').map((r) => checkedResource('RelatedPerson', r));
    const tag = DEMO_FHIR_SETTINGS.delegationTag;
    expect(mapRelationships(matches, index, TOLVAN, tag, mapContext())).toStrictEqual(expectedAnswer('relationships-191212121212.json'));
    expect(mapRelationships(matches, index, '196803152385', tag, mapContext())).toStrictEqual([]);
  });
});

describe('FHIR_DELEGATION_TAG', () => {
  it('is read as system|code, and refused in any other form', () => {
    expect(parseDelegationTag('http://example.org/fhir/pdas/CodeSystem/registry|delegation'))
      .toEqual({ system: 'http://example.org/fhir/pdas/CodeSystem/registry', code: 'delegation' });
    for (const bad of ['delegation', '|delegation', 'http://x|', 'http://x|a|b']) expect(() => parseDelegationTag(bad)).toThrow(RangeError);
  });
});
