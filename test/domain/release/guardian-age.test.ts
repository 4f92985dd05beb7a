import { describe, expect, it } from 'vitest';
import type { AccessBasis } from '../../../src/domain/access/relationship.js';
import { guardianAgeWithholds } from '../../../src/domain/release/guardian-age.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';

const ZONE = 'Europe/Stockholm';
/** Born 15 November 2013 (test number); its coordination number, day + 60. */
const CHILD = '201311152381';
const CHILD_COORDINATION = '201311752388';
/** Born 29 February 2012 (test number). */
const LEAP_CHILD = '201202292387';
const ADULT = '191212121212';

const policy: ReleasePolicy = { guardianAgeLimit: { operations: { getJournalNotes: 13, getMedications: 12 } } };
const at = (compact: string): number => compactToEpochMs(compact, ZONE);
const withholds = (basis: AccessBasis, patient: string, now: number, p: ReleasePolicy = policy, op: 'getJournalNotes' | 'getMedications' | 'getContacts' = 'getJournalNotes') =>
  guardianAgeWithholds(p, op, basis, patient, now, ZONE);

describe('the guardian age limit, per operation (issue 14 item 2)', () => {
  it('issue 14 item 2: a guardian reads the child\'s notes the day before the 13th birthday and not on the birthday itself', () => {
    expect(withholds('guardian', CHILD, at('20261114235959'))).toBe(false);
    expect(withholds('guardian', CHILD, at('20261115000000'))).toBe(true);
    expect(withholds('guardian', CHILD, at('20270601120000'))).toBe(true);
  });

  it('issue 14 item 2: the birthday begins at local midnight (23:00 UTC the evening before, in winter)', () => {
    expect(withholds('guardian', CHILD, Date.UTC(2026, 10, 14, 22, 59, 59))).toBe(false);
    expect(withholds('guardian', CHILD, Date.UTC(2026, 10, 14, 23, 0, 0))).toBe(true);
  });

  it('issue 14 item 2: reads the birth date of a coordination number without its 60', () => {
    expect(withholds('guardian', CHILD_COORDINATION, at('20261114120000'))).toBe(false);
    expect(withholds('guardian', CHILD_COORDINATION, at('20261115000000'))).toBe(true);
  });

  it('issue 14 item 2: a child born on 29 February reaches 13 on 1 March in a year without that day, never on 28 February', () => {
    expect(withholds('guardian', LEAP_CHILD, at('20250228235959'))).toBe(false);
    expect(withholds('guardian', LEAP_CHILD, at('20250301000000'))).toBe(true);
  });

  it('issue 14 item 2: a child born on 29 February reaches 12 on 29 February in a leap year', () => {
    expect(withholds('guardian', LEAP_CHILD, at('20240228235959'), policy, 'getMedications')).toBe(false);
    expect(withholds('guardian', LEAP_CHILD, at('20240229000000'), policy, 'getMedications')).toBe(true);
  });

  it('issue 14 item 2: each operation has its own age, and an operation without one is never limited', () => {
    const eleven = at('20241201120000'); // CHILD is 11: below both limits
    const twelve = at('20251201120000'); // 12: the medications limit, not the notes limit
    expect([withholds('guardian', CHILD, eleven, policy, 'getMedications'), withholds('guardian', CHILD, eleven)]).toEqual([false, false]);
    expect([withholds('guardian', CHILD, twelve, policy, 'getMedications'), withholds('guardian', CHILD, twelve)]).toEqual([true, false]);
    expect(withholds('guardian', CHILD, at('20301201120000'), policy, 'getContacts')).toBe(false);
  });

  it('issue 14 item 2: the child, a partner and a power of attorney are not guardians', () => {
    const older = at('20301201120000');
    for (const basis of ['self', 'partner', 'power-of-attorney'] as const) expect(withholds(basis, CHILD, older)).toBe(false);
  });

  it('issue 14 item 2: a client token is held to the limit while the patient is a minor, unless the rule says otherwise', () => {
    expect(withholds('client', CHILD, at('20261114120000'))).toBe(false);
    expect(withholds('client', CHILD, at('20261115120000'))).toBe(true);
    // An adult is nobody's child: the limit is about guardians.
    expect(withholds('client', CHILD, at('20311115000000'))).toBe(false);
    expect(withholds('client', ADULT, at('20261115120000'))).toBe(false);
    const exempt: ReleasePolicy = { guardianAgeLimit: { ...policy.guardianAgeLimit!, applyToClientTokens: false } };
    expect(withholds('client', CHILD, at('20261115120000'), exempt)).toBe(false);
    expect(withholds('guardian', CHILD, at('20261115120000'), exempt)).toBe(true);
  });

  it('issue 14 item 2: no rule, no limit', () => {
    expect(withholds('guardian', CHILD, at('20301201120000'), {})).toBe(false);
  });
});
