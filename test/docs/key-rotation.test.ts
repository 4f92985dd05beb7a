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

describe('issue 34 item 11a: docs/operations.md#rotating-keys-and-certificates', () => {
  it('issue 34 item 11a: says that withdrawing a signing key needs its replacement published, since an empty JWKS revokes nothing', () => {
    expect(signingKeyRow).not.toBe('');
    expect(signingKeyRow).toMatch(/withdraw[^|]*replacement[^|]*publish|withdraw[^|]*publish[^|]*replacement/i);
    expect(signingKeyRow).toContain('{"keys":[]}');
  });
});
