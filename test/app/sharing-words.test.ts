/**
 * The Sharing tab's words (app/src/sharing-words.ts): what a grant opens in the record's own words
 * (the access log's names of the reads), its period from the contract's 14-digit local times, and the
 * sentence a grantee reads when the grantor has stopped sharing, in both languages.
 */
import { describe, expect, it } from 'vitest';
import type { Grant } from '../../app/src/grant-types.js';
import { categoriesWords, endLabel, noLongerShares, periodWords, sharesOnly } from '../../app/src/sharing-words.js';
import { OPERATIONS } from '../../src/domain/operations/table.js';

const grant: Grant = {
  id: 'g', status: 'active', role: 'grantee', grantor: { identityNumber: '198112189876', name: 'Märta Ström' }, grantee: { identityNumber: '191212121212' },
  categories: ['LabResult'], validFrom: '20261126093000', created: '20261126093000', changed: '20261126093000',
};

describe('the Sharing tab\'s words', () => {
  it('names what is shared as the record\'s sections are named, and everything as everything', () => {
    expect(categoriesWords(['LabResult', 'Diagnosis'], 'en')).toBe(`${OPERATIONS.getLabResults.displayName.en}, ${OPERATIONS.getDiagnoses.displayName.en}`);
    expect(categoriesWords(['LabResult'], 'sv')).toBe('Provsvar');
    expect(categoriesWords(['*'], 'sv')).toBe('Allt, nu och framöver');
  });

  it('dates a period from its 14-digit local times, open-ended until someone ends it', () => {
    expect(periodWords(grant, 'en')).toBe('from 26 Nov 2026, until ended');
    expect(periodWords({ ...grant, validTo: '20261231235959' }, 'sv')).toBe('26 nov. 2026 – 31 dec. 2026');
  });

  it('says by name who shares what, and who no longer shares, in both languages', () => {
    expect(sharesOnly('Märta Ström', ['LabResult'], 'en')).toBe('Märta Ström shares only this with you: Lab results. The rest of the record is not shared with you.');
    expect(noLongerShares('Märta Ström', 'sv')).toBe('Märta Ström delar inte längre sin journal med dig.');
    expect(noLongerShares(undefined, 'en')).toBe('This person no longer shares their record with you.');
    expect(endLabel(grant, 'en')).toBe("Stop reading Märta Ström's record");
    // A number typed is shown as typed: no name is ever given for it before the person accepts (threat 64).
    expect(endLabel({ ...grant, role: 'grantor', status: 'pending' }, 'en')).toBe('Withdraw the invitation to 191212121212');
  });
});
