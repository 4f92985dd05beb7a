import path from 'node:path';
import { REPOSITORY_ROOT } from './upstream-examples.js';

/**
 * AUDIT_CHAIN_KEY_FILE for a test that starts the service outside demo mode, where the start stops
 * without it (docs/operations.md#the-chain-key). Its key is in the repository: it protects nothing.
 */
export const TEST_CHAIN_KEY_FILE = path.join(REPOSITORY_ROOT, 'test/fixtures/audit-chain/test-key');
export const CHAIN_KEY_ENV = { AUDIT_CHAIN_KEY_FILE: TEST_CHAIN_KEY_FILE } as const;
