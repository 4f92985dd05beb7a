/**
 * A diagnosis not confirmed says so beside its status (app/src/records.ts), in Swedish and English,
 * as an allergy does in the list view: a provisional or refuted diagnosis shown by its clinical status
 * alone reads as one the patient has. Confirmed, what a status says unqualified, has no word.
 * Failed before: the card said the clinical status only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resource } from '../../app/src/fhir-types.js';
import { diagnoses } from '../../app/src/records.js';
import { all, fakeDocument, type FakeElement } from './fake-document.js';

const VER = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const condition = (id: string, verification: string, recordedDate: string): Resource => ({
  resourceType: 'Condition', id, code: { text: `Diagnos ${id}` }, recordedDate,
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  verificationStatus: { coding: [{ system: VER, code: verification }] },
});
const FOUND = [
  condition('1', 'provisional', '2026-03-01'), condition('2', 'differential', '2026-02-01'),
  condition('3', 'refuted', '2026-01-01'), condition('4', 'confirmed', '2025-12-01'),
];

describe('a diagnosis\'s verification status beside its status', () => {
  beforeEach(() => { vi.stubGlobal('document', fakeDocument); });
  afterEach(() => { vi.unstubAllGlobals(); });

  it.each([
    ['en', [['Active', 'Provisional'], ['Active', 'Differential'], ['Active', 'Refuted'], ['Active']]],
    ['sv', [['Aktiv', 'Preliminär'], ['Aktiv', 'Differentialdiagnos'], ['Aktiv', 'Motbevisad'], ['Aktiv']]],
  ] as const)('in %s', (lang, statuses) => {
    const cards = all(diagnoses(FOUND, lang) as unknown as FakeElement, 'li');
    // Each card's descriptions after its recorded date: its status, then how sure it is.
    expect(cards.map((c) => all(c, 'dd').map((d) => d.text()).slice(1))).toEqual(statuses);
  });
});
