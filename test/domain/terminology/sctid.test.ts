/**
 * src/domain/terminology/sctid.ts: what a SNOMED CT identifier is. The oracle is codes SNOMED CT
 * publishes (concepts every EHR uses, and the Swedish extension's folkbokföringsadress this service
 * writes), and Verhoeff's guarantee: any one digit changed, or two neighbours swapped, fails the check.
 */
import { describe, expect, it } from 'vitest';
import { isSctid, verhoeffValid } from '../../../src/domain/terminology/sctid.js';

const PUBLISHED = [
  '22298006', '195967001', '363346000', '40733004', '230690007', '84114007', '128053003', '56265001', '44054006', '195662009',
  '271737000', '386661006', '73211009', '38341003', '404684003', '1003755004', '63381000052101',
];

describe('a SNOMED CT identifier', () => {
  it('is every published code', () => {
    expect(PUBLISHED.filter((code) => !isSctid(code))).toEqual([]);
  });

  it('is none of those with one digit changed or two neighbours swapped (Verhoeff finds every such error)', () => {
    for (const code of PUBLISHED) {
      for (let at = 0; at < code.length; at++) {
        for (let digit = 0; digit <= 9; digit++) {
          const changed = `${code.slice(0, at)}${digit}${code.slice(at + 1)}`;
          if (changed !== code) expect([changed, verhoeffValid(changed)]).toEqual([changed, false]);
        }
        const swapped = `${code.slice(0, at)}${code[at + 1] ?? ''}${code[at] ?? ''}${code.slice(at + 2)}`;
        if (at + 1 < code.length && swapped !== code) expect([swapped, verhoeffValid(swapped)]).toEqual([swapped, false]);
      }
    }
  });

  it('has 6 to 18 digits, no leading zero and a known partition', () => {
    // 2363 passes Verhoeff (the algorithm's own example) but is too short; 191212121212 has partition 21.
    for (const code of ['2363', '022298006', '191212121212', '1212121212', '22298006a', '', '1234567890123456789']) {
      expect([code, isSctid(code)]).toEqual([code, false]);
    }
  });
});
