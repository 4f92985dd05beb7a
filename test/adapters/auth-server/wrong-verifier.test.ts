/**
 * Which refused code requests spend the code (src/adapters/auth-server/wrong-verifier.ts): a wrong or
 * missing verifier sent by the code's own app, told by RFC 7636's S256 (its Appendix B example).
 */
import { describe, expect, it } from 'vitest';
import { provesChallenge, wrongVerifier } from '../../../src/adapters/auth-server/wrong-verifier.js';

const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const CODE = { clientId: 'patient-app', grantId: 'g1', codeChallenge: CHALLENGE };

describe('a wrong verifier', () => {
  it('RFC 7636 Appendix B: its verifier proves its challenge; another, or none, does not', () => {
    expect(provesChallenge(VERIFIER, CHALLENGE)).toBe(true);
    expect(provesChallenge(`${VERIFIER.slice(0, -1)}l`, CHALLENGE)).toBe(false);
    expect(provesChallenge(undefined, CHALLENGE)).toBe(false);
    expect(provesChallenge(VERIFIER, '')).toBe(false);
  });

  it('spends the code only when its own app sent a verifier that does not prove it, and was answered 400', () => {
    const refusal = { status: 400, clientId: 'patient-app', verifier: 'another-verifier-of-forty-three-characters-x' };
    expect(wrongVerifier(refusal, CODE)).toBe(true);
    expect(wrongVerifier({ ...refusal, verifier: undefined }, CODE)).toBe(true);
    // The right verifier refused for something else (its redirect_uri, a replay oidc-provider answers itself).
    expect(wrongVerifier({ ...refusal, verifier: VERIFIER }, CODE)).toBe(false);
    // Another app naming the code: refused for that alone; anyone may name any app.
    expect(wrongVerifier({ ...refusal, clientId: 'api-docs' }, CODE)).toBe(false);
    expect(wrongVerifier({ ...refusal, clientId: undefined }, CODE)).toBe(false);
    // The app's own authentication failed (401): the code is not the request's to spend.
    expect(wrongVerifier({ ...refusal, status: 401 }, CODE)).toBe(false);
    expect(wrongVerifier(refusal, { ...CODE, codeChallenge: undefined })).toBe(false);
  });
});
