// A launch's steps are recorded in the access log of the patient they name. A posted Patient id this
// service never made names no patient: a refused pick of one touches nobody's record, so there is no
// log to record it in, and it is no failure of the audit (the operators' log said "a grant could not
// be audited" for it before). A step that was allowed for such an id still fails: nothing is granted.
import { describe, expect, it } from 'vitest';
import { KeyedFhirIds } from '../../src/adapters/fhir-ids/keyed-fhir-ids.js';
import type { GrantEvent } from '../../src/ports/smart-launch.port.js';
import { smartLaunchContext } from '../../src/start/smart-launch.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';

const TOLVAN = '191212121212';
const MARTA = '194911209280';

function launchContext() {
  const trail = new MemoryAuditTrail();
  const ids = new KeyedFhirIds(Buffer.alloc(32, 7));
  const noPolicy = () => { throw new Error('not asked in these tests'); };
  const smart = smartLaunchContext(ids, noPolicy, () => 'http://127.0.0.1:1', {
    trail: () => trail, clock: new FixedClock(Date.UTC(2026, 10, 28, 9)), release: { policy: undefined, zone: 'Europe/Stockholm' },
  }, true);
  return { smart, trail, ids };
}

const pick = (patientId: string, outcome: 'allowed' | 'denied'): GrantEvent => ({
  kind: 'picked', outcome, status: outcome === 'denied' ? 400 : 200, issuer: 'http://127.0.0.1:2', accountId: MARTA,
  patientId, basis: outcome === 'denied' ? 'refused' : 'guardian', clientId: 'patient-app', scopes: ['launch/patient'], sourceAddress: '127.0.0.1',
});

describe('a launch step for a Patient id this service did not make', () => {
  it('a refused pick of one is no audit failure, and is recorded nowhere', async () => {
    const { smart, trail } = launchContext();
    for (const posted of ['not-an-id', '', 'x'.repeat(5000), '../Patient/1']) {
      await expect(smart.recordGrant(pick(posted, 'denied'))).resolves.toBeUndefined();
    }
    expect(trail.records).toEqual([]);
  });

  it('a refused pick of one of its ids is in that patient\'s log; an allowed step for an unknown id fails', async () => {
    const { smart, trail, ids } = launchContext();
    await smart.recordGrant(pick(ids.patientId(TOLVAN), 'denied'));
    expect(trail.records.map((r) => [r.patientId, r.operation, r.outcome, r.status])).toEqual([[TOLVAN, 'pickAppPatient', 'denied', 400]]);
    await expect(smart.recordGrant(pick('not-an-id', 'allowed'))).rejects.toThrow(/not one of this service/);
    expect(trail.records).toHaveLength(1);
  });
});
