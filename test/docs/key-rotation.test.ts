/**
 * Issue 34 item 11a: an empty JWKS does not revoke cached keys (threat 42 of
 * docs/threat-model.md#found-by-independent-review, proven in test/security/token-attacks.test.ts;
 * a withdrawal with a replacement in test/security/key-withdrawal.test.ts), so the operators' key
 * rotation section says that withdrawing a key needs a replacement published.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const operations = readFileSync(path.join(REPOSITORY_ROOT, 'docs', 'operations.md'), 'utf8');
const section = operations.slice(operations.indexOf('## Rotating keys and certificates'), operations.indexOf('## The audit store'));
const signingKeyRow = section.split('\n').find((line) => line.startsWith('| the authorization server\'s signing key')) ?? '';

const signIn = readFileSync(path.join(REPOSITORY_ROOT, 'docs', 'sign-in.md'), 'utf8');
const signInRotation = signIn.slice(signIn.indexOf('## Rotating keys'), signIn.indexOf('## What the person sees'));

describe('issue 52 review 2: docs/sign-in.md#rotating-keys', () => {
  it('says every instance publishes the new key before any signs with it, and the old key stays a token lifetime after the last moved', () => {
    expect(signInRotation).toMatch(/\*\*every\*\* instance before any instance signs with the new key/);
    expect(signInRotation).toMatch(/does not hold the new key yet refuses every token signed with it/);
    expect(signInRotation).toMatch(/only the new key refuses\s+every token signed with the old one/);
    expect(signInRotation).toMatch(/token lifetime \(900 s\) has passed since the \*\*last\*\* instance\s+moved/);
  });
});

describe('issue 34 item 11a: docs/operations.md#rotating-keys-and-certificates', () => {
  it('issue 34 item 11a: says that withdrawing a signing key needs its replacement published, since an empty JWKS revokes nothing', () => {
    expect(signingKeyRow).not.toBe('');
    expect(signingKeyRow).toMatch(/withdraw[^|]*replacement[^|]*publish|withdraw[^|]*publish[^|]*replacement/i);
    expect(signingKeyRow).toContain('{"keys":[]}');
  });
});
