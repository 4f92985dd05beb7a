import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { ProxyGrantStore } from '../../ports/proxy-grants.port.js';
import type { Relationship } from '../access/relationship.js';
import { reachOfGrant } from './grant.js';

/**
 * The delegation check's registry with the patients' own grants beside the EHR's (docs/proxies.md#what-a-grant-opens):
 * every active grant a person received is a relationship of type `proxy`, with the grant's categories
 * and times, so every door, the SMART picker and `$summary` see proxies through the one check they
 * already make. Asked on every request, as the EHR's registry is: a revoke or an expiry refuses the
 * very next one.
 */
export class ProxyDelegation implements DelegationRegistry {
  constructor(private readonly registry: DelegationRegistry, private readonly grants: ProxyGrantStore) {}

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    // The grants after the registry, not beside it: the registry may be the EHR, seconds slow, and a grant revoked
    // meanwhile must not be read as live (hostile review helper-137, F1).
    const recorded = await this.registry.relationshipsOf(actorId);
    const received = await this.grants.activeReceivedBy(actorId);
    return [...recorded, ...received.map((g): Relationship => ({
      patient: g.grantor, type: 'proxy', validFrom: '',
      proxy: { grantId: g.id, reach: reachOfGrant(g), fromMs: g.validFromMs, ...(g.validToMs === undefined ? {} : { toMs: g.validToMs }) },
    }))];
  }
}
