/**
 * The demo's proxy grants (docs/proxies.md), kept in the grant store at the first start in demo mode so
 * that a newcomer signing in as Märta sees sharing at once: Gösta shares his bookings and medications
 * with her (active), and her son Anton, now an adult, invites her to his bookings (pending: accepting
 * it puts him in her Switch person). Märta gives nothing, so Märta → Tolvan stays free for the browser
 * test of the Sharing tab. Idempotent: a pair that has ever had a grant is left as it is, so a restart
 * (or a grant the person has since ended) never brings one back.
 */
import { newGrantId } from '../../adapters/proxy-grants/new-grant-id.js';
import type { Clock } from '../../ports/clock.port.js';
import type { ProxyGrantStore, StoredGrant } from '../../ports/proxy-grants.port.js';
import { DEMO_ACTOR_ID } from '../demo-data/people.js';

const GOSTA = '194608632396';
const ANTON = '200404122384';

interface DemoGrant {
  grantor: string;
  grantorName: string;
  categories: string[];
  purpose: string;
  /** Accepted by Märta at the first start; otherwise an invitation waiting for her. */
  active: boolean;
}

export const DEMO_GRANTS: readonly DemoGrant[] = [
  { grantor: GOSTA, grantorName: 'Gösta Partnersson', categories: ['Appointment', 'MedicationPrescription'], purpose: 'Hjälp med mina besök och mediciner', active: true },
  { grantor: ANTON, grantorName: 'Anton Ström', categories: ['Appointment'], purpose: 'Så att mamma ser när jag har tid', active: false },
];

/** Keeps each demo grant whose pair has none yet; answers how many were kept. */
export async function seedDemoGrants(store: ProxyGrantStore, clock: Clock): Promise<number> {
  const known = await store.involving(DEMO_ACTOR_ID);
  let kept = 0;
  for (const demo of DEMO_GRANTS) {
    if (known.some((g) => g.grantor === demo.grantor && g.grantee === DEMO_ACTOR_ID)) continue;
    const nowMs = clock.now();
    const grant: StoredGrant = {
      id: newGrantId(), state: 'pending', grantor: demo.grantor, grantorName: demo.grantorName, grantee: DEMO_ACTOR_ID,
      categories: demo.categories, validFromMs: nowMs, purpose: demo.purpose, createdMs: nowMs, changedMs: nowMs,
    };
    await store.create(grant, () => undefined);
    if (demo.active) {
      await store.change(grant.id, ['pending'], { state: 'active', changedMs: nowMs, granteeName: 'Märta Ström' },
        { grantId: grant.id, kind: 'accepted', atMs: nowMs, by: 'grantee', grantor: demo.grantor, grantee: DEMO_ACTOR_ID });
    }
    kept += 1;
  }
  return kept;
}
