/**
 * A grant's id is read by people: in the log, in the support command's output (`npm run proxies`), in
 * the access log. Every such text passes the scrubber, which writes ten digits in a row as
 * `[REDACTED]` (an identity number's shape), and about one random 32-hex id in 28 holds such a run: the
 * support command showed `641171e91bc6e18b597cbe6435943142` as `641171e91bc6e18b597cbe[REDACTED]`,
 * an id an operator could not copy to act on the grant. A new grant's id is drawn again until the
 * scrubber leaves it as written.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawGrantId } from '../../../src/domain/proxies/grant-id.js';
import { newGrantId } from '../../../src/adapters/proxy-grants/new-grant-id.js';
import { GRANT_ID_PATTERN } from '../../../src/domain/operations/proxy-parameters.js';
import { scrubText } from '../../../src/domain/redaction/scrub-text.js';

describe('a new grant id', () => {
  it('draws again past an id the scrubber would change, and keeps the first it leaves as written', () => {
    // Ten digits standing alone at the end, then in the middle; a run of twenty holds no valid number and is kept, as the scrubber keeps it.
    const draws = ['641171e91bc6e18b597cbe6435943142', 'abcdef1234567890abcdefabcdefabcd', '00000000001234567890abcdefabcdef'];
    const drawn: string[] = [];
    const id = drawGrantId(() => {
      const next = draws[drawn.length] as string;
      drawn.push(next);
      return next;
    });
    expect(id).toBe('00000000001234567890abcdefabcdef');
    expect(drawn).toHaveLength(3);
  });

  it('is, over 20,000 draws of the service\'s own generator, 32 hex digits the scrubber leaves as written', () => {
    const pattern = new RegExp(GRANT_ID_PATTERN);
    const changed: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const id = newGrantId();
      expect(pattern.test(id)).toBe(true);
      if (scrubText(id) !== id) changed.push(id);
    }
    expect(changed).toEqual([]);
  });

  it('would be changed about one time in 28 if drawn once: what the draws above are kept from', () => {
    // Uniform bytes, the same on every run: SHA-256 of a counter. (fast-check's byte arrays lean towards
    // 0x00 and the like, more digits: 1,102 of 20,000 there, which a hostile review caught.)
    const ids = Array.from({ length: 20_000 }, (_, i) => createHash('sha256').update(`grant id ${i}`).digest().subarray(0, 16).toString('hex'));
    const changed = ids.filter((id) => scrubText(id) !== id).length;
    // 682 of 20,000: about one in 29; 3.6 % of 200,000 crypto draws in the review.
    expect(changed).toBeGreaterThan(590);
    expect(changed).toBeLessThan(850);
  });
});
