/**
 * The tokens of the authorization server's forms and notices (form-tokens.ts): each kind of binding
 * its own, so a token of one is worth nothing as another's, and a rotated key's tokens still count.
 */
import { describe, expect, it } from 'vitest';
import { FormTokens } from '../../../src/adapters/auth-server/form-tokens.js';

const session = { session: 'uid-1', accountId: '198112189876' };

describe('form tokens', () => {
  const tokens = new FormTokens(['key one']);

  it('takes a token for exactly what it was made for', () => {
    expect(tokens.valid(tokens.issue(session), session)).toBe(true);
    expect(tokens.valid(tokens.issue({ notice: 'revoked', ...session, state: 'g1 g2' }), { notice: 'revoked', ...session, state: 'g1 g2' })).toBe(true);
    expect(tokens.valid(tokens.issue(session), { ...session, session: 'uid-2' })).toBe(false);
    expect(tokens.valid(tokens.issue(session), { ...session, accountId: '191212121212' })).toBe(false);
    expect(tokens.valid(null, session)).toBe(false);
    expect(tokens.valid('', session)).toBe(false);
  });

  it('does not take a form\'s token as a notice\'s, one notice\'s as another\'s, or an interaction\'s as a session\'s', () => {
    expect(tokens.valid(tokens.issue(session), { notice: 'revoked', ...session, state: 'g1 g2' })).toBe(false);
    expect(tokens.valid(tokens.issue({ notice: 'revoked', ...session, state: 'g1 g2' }), session)).toBe(false);
    expect(tokens.valid(tokens.issue({ notice: 'gone', ...session, state: 'g1 g2' }), { notice: 'revoked', ...session, state: 'g1 g2' })).toBe(false);
    expect(tokens.valid(tokens.issue({ interaction: 'uid-1' }), session)).toBe(false);
  });

  it('does not take a notice\'s token once the page it reports has changed', () => {
    const notice = { notice: 'revoked', ...session, state: 'g1 g2' };
    expect(tokens.valid(tokens.issue(notice), { ...notice, state: 'g1 g2 g3' })).toBe(false);
    expect(tokens.valid(tokens.issue(notice), { ...notice, state: 'g1' })).toBe(false);
  });

  it('takes a token of an older key while it is listed, and none of a key dropped', () => {
    const old = tokens.issue({ notice: 'revoked', ...session, state: 'g1 g2' });
    expect(new FormTokens(['key two', 'key one']).valid(old, { notice: 'revoked', ...session, state: 'g1 g2' })).toBe(true);
    expect(new FormTokens(['key two']).valid(old, { notice: 'revoked', ...session, state: 'g1 g2' })).toBe(false);
  });
});
