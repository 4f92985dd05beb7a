/**
 * Hostile review helper-137, F1: the registry (the EHR, which may take seconds) and the patient's grants were read
 * side by side, so a grant revoked while the registry answered was read as live. The grants are read once the
 * registry has answered.
 */
import { describe, expect, it } from 'vitest';
import { ProxyDelegation } from '../../../src/domain/proxies/proxy-delegation.js';
import type { DelegationRegistry } from '../../../src/ports/delegation-registry.port.js';
import type { ProxyGrantStore } from '../../../src/ports/proxy-grants.port.js';

describe('ProxyDelegation', () => {
  it('reads the grants after the registry has answered, so a grant revoked meanwhile is not live', async () => {
    let answer: () => void = () => undefined;
    const registry = { relationshipsOf: () => new Promise((resolve) => { answer = () => resolve([]); }) } as unknown as DelegationRegistry;
    let revoked = false;
    const grants = {
      activeReceivedBy: async () => (revoked ? [] : [{ id: 'g1', grantor: '191212121212', validFromMs: 0, categories: ['LabResult'] }]),
    } as unknown as ProxyGrantStore;
    const asked = new ProxyDelegation(registry, grants).relationshipsOf('194608632396');
    await new Promise((r) => setImmediate(r));
    revoked = true;
    answer();
    expect(await asked).toEqual([]);
  });
});
