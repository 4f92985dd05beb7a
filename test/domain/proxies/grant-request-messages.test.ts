// A refused grant request says which member and what it must be, and never repeats an identity number
// the person typed into the wrong member (hostile review: a category named by a number came back in the 400).
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import { checkGrantRequest } from '../../../src/domain/proxies/grant-request.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';
const NOW = Date.parse('2026-11-28T09:00:00Z');

const refusal = (categories: string[]): string => {
  try {
    checkGrantRequest({ grantee: MARTA, categories }, TOLVAN, NOW, 'Europe/Stockholm', { invitationDays: 7, maxGrants: 10 });
  } catch (err) {
    if (err instanceof DomainError) return err.message;
    throw err;
  }
  throw new Error('not refused');
};

describe('a grant request\'s refusals', () => {
  it('repeat an unknown category as typed, but never one that holds an identity number', () => {
    expect(refusal(['Vaccinations'])).toContain('"Vaccinations"');
    for (const typed of [MARTA, `${MARTA.slice(2, 8)}-${MARTA.slice(8)}`, `LabResult ${MARTA}`]) {
      const message = refusal([typed]);
      expect([typed, message.startsWith('Body member categories'), /\d{6}/.test(message)]).toEqual([typed, true, false]);
    }
  });
});
