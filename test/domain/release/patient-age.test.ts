import { describe, expect, it } from 'vitest';
import type { AccessBasis } from '../../../src/domain/access/relationship.js';
import { ageLimitWithholds, patientAgeWithholds } from '../../../src/domain/release/patient-age.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
/** Born 15 November 2013 (test number): 14 through 14 November 2029; its coordination number, day + 60. */
const CHILD = '201311152381';
const CHILD_COORDINATION = '201311752388';
/** Born 29 February 2012 (test number). */
const LEAP_CHILD = '201202292387';

const policy: ReleasePolicy = {
  patientAgeLimit: { operations: { getJournalNotes: 16, getLabResults: 16, getDiagnoses: 16 } },
  guardianAgeLimit: { operations: { getJournalNotes: 13 } },
};
const at = (compact: string): number => compactToEpochMs(compact, ZONE);
const withholds = (basis: AccessBasis, patient: string, now: number, op = 'getJournalNotes', p: ReleasePolicy = policy) =>
  patientAgeWithholds(p, op, basis, patient, now, ZONE);

describe('issue 44 item 13: the patient\'s own age limit, per operation', () => {
  it('issue 44 item 13: a 14-year-old reads none of her own notes, lab results or diagnoses; from her 16th birthday (local midnight) she does', () => {
    const fourteen = at('20280601120000');
    for (const op of ['getJournalNotes', 'getLabResults', 'getDiagnoses']) expect([op, withholds('self', CHILD, fourteen, op)]).toEqual([op, true]);
    expect(withholds('self', CHILD, at('20291114235959'))).toBe(true);
    expect(withholds('self', CHILD, at('20291115000000'))).toBe(false);
    expect(withholds('self', CHILD, Date.UTC(2029, 10, 14, 22, 59, 59))).toBe(true);
    expect(withholds('self', CHILD, Date.UTC(2029, 10, 14, 23, 0, 0))).toBe(false);
  });

  it('issue 44 item 13: reads the birth date of a coordination number without its 60, and a 29 February child turns 16 on 1 March', () => {
    expect(withholds('self', CHILD_COORDINATION, at('20291114120000'))).toBe(true);
    expect(withholds('self', CHILD_COORDINATION, at('20291115000000'))).toBe(false);
    expect(withholds('self', LEAP_CHILD, at('20280228235959'))).toBe(true);
    expect(withholds('self', LEAP_CHILD, at('20280229000000'))).toBe(false);
  });

  it('issue 44 item 13: an operation the rule does not name, and no rule, never limit', () => {
    const fourteen = at('20280601120000');
    expect(withholds('self', CHILD, fourteen, 'getMedications')).toBe(false);
    expect(withholds('self', CHILD, fourteen, 'getJournalNotes', {})).toBe(false);
  });

  it('issue 44 item 13: holds the patient\'s own reads; delegates are the guardian age limit\'s', () => {
    const twelve = at('20260601120000');
    for (const basis of ['guardian', 'partner', 'power-of-attorney'] as const) expect([basis, withholds(basis, CHILD, twelve)]).toEqual([basis, false]);
  });

  it('issue 52 item 20: never holds a client token: the limit is about the patient reading online, which the door facing her applies', () => {
    // Failed before: a client token was held as the child is, so a guardian reading a child's lab results
    // through a second instance B (whose client token A answered) got none (test/e2e/fhir-chain.e2e.test.ts).
    const fourteen = at('20280601120000');
    expect(withholds('client', CHILD, fourteen)).toBe(false);
    expect(withholds('client', CHILD, fourteen, 'getLabResults')).toBe(false);
    expect(withholds('self', CHILD, fourteen, 'getLabResults')).toBe(true);
  });

  it('issue 44 item 13: with both limits, from 13 to 15 neither the child nor the guardian reads the notes (1177)', () => {
    const take = (basis: AccessBasis, compact: string) => ageLimitWithholds(policy, 'getJournalNotes', basis, CHILD, at(compact), ZONE);
    expect([take('self', '20260601120000'), take('guardian', '20260601120000')]).toEqual([true, false]);
    expect([take('self', '20280601120000'), take('guardian', '20280601120000')]).toEqual([true, true]);
    expect([take('self', '20300601120000'), take('guardian', '20300601120000')]).toEqual([false, true]);
  });
});
