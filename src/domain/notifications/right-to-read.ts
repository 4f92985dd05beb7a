/**
 * The check at sending (docs/notifications.md#checked-at-sending): whether a subscription's person may
 * read what its topic tells, now. It asks exactly what a request of theirs would be asked: the app's
 * grant of the sign-in still held, with scopes that still reach the topic for the patient, the
 * delegation or proxy grant live (PatientAccessPolicy, which also refuses a protected identity to any
 * delegate), the topic's reads within a proxy's categories, the access log within the release policy's
 * age limits, and sharing's events for the patient alone. And one thing a request is not asked: that
 * the right is still the one the subscription was made under.
 */
import type { AppGrants } from '../../ports/app-grants.port.js';
import type { EhrCalls } from '../../ports/ehr-records.port.js';
import { reachesOperation, reachesRead } from '../access/operation-reach.js';
import type { PatientAccess, PatientAccessPolicy } from '../access/patient-access.js';
import { isDelegated } from '../access/relationship.js';
import { DomainError } from '../errors.js';
import type { ReadName } from '../operations/table.js';
import { ageLimitWithholds } from '../release/patient-age.js';
import type { ReleaseSettings } from '../use-cases/read-patient-data.js';
import type { EndReason, MadeUnder, StoredSubscription } from './subscription.js';
import { feedOfTopic, readsOfTopic } from './topics.js';

/**
 * The right holds: the access a request of theirs would get, the topic's reads it reaches (none for a feed
 * topic), and the scopes the app's grant holds now where the service issued the app's tokens.
 */
export interface RightHolds {
  kind: 'holds';
  access: PatientAccess;
  reads: readonly ReadName[];
  scopes?: ReadonlySet<string>;
}

/** The right is gone for good: the subscription turns `off` and is told nothing more. */
export interface RightLost {
  kind: 'lost';
  reason: Extract<EndReason, 'right-lost' | 'app-revoked'>;
}

export type Right = RightHolds | RightLost;

const lost = (reason: RightLost['reason']): RightLost => ({ kind: 'lost', reason });

/**
 * Whether `scopes`, those the app's grant holds now, still allow what making `subscription` took (its
 * Subscription scope and the read of its topic, for its patient): the FHIR door's own test of a new
 * subscription (src/http/fhir/subscription-caller.ts), asked again at sending.
 */
export type ScopesReach = (subscription: StoredSubscription, scopes: ReadonlySet<string>) => boolean;

/** What a subscription made through `access` is made under. */
export const madeUnderOf = (access: PatientAccess): MadeUnder =>
  ({ basis: access.basis, ...(access.proxyGrants === undefined ? {} : { proxyGrants: access.proxyGrants }) });

/**
 * Whether `access` still rests on the right a subscription was made under: the same basis, and for a
 * proxy every grant it was made under still live. A grant the patient gives beside them widens what it
 * follows, as it widens every read of the person's; one that ended ends it, whatever was given since,
 * so a revoke is never undone by a new grant coming before the next check (hostile review helper-107,
 * F1). One kept before `madeUnder` was recorded holds for the patient alone.
 */
export function keepsRight(madeUnder: MadeUnder | undefined, access: PatientAccess): boolean {
  if (madeUnder === undefined) return !isDelegated(access.basis);
  if (madeUnder.basis !== access.basis) return false;
  const live = new Set(access.proxyGrants);
  return (madeUnder.proxyGrants ?? []).every((grant) => live.has(grant));
}

export class RightToRead {
  /**
   * `appGrants`, where the service's own authorization server (or the demo's) issued the tokens: the
   * app's grant must still hold, and its scopes still reach the topic (`scopesReach`); without it only
   * the person's right to the patient is asked.
   */
  constructor(
    private readonly policy: PatientAccessPolicy,
    private readonly appGrants: { grants: AppGrants; scopesReach: ScopesReach } | undefined,
    private readonly release: ReleaseSettings & { zone: string },
  ) {}

  /**
   * Decides for a kept `subscription` now, through `view` when the caller reads the patient's records
   * through one already. Throws (an EhrError, a store's unavailability) when it cannot be decided:
   * nothing is sent meanwhile, and the subscription is not ended for it.
   */
  async check(subscription: StoredSubscription, view?: EhrCalls): Promise<Right> {
    const right = await this.decide(subscription, view);
    return right.kind === 'holds' && !keepsRight(subscription.madeUnder, right.access) ? lost('right-lost') : right;
  }

  /** Decides for a subscription being made: where the right holds, `madeUnderOf` its access is what it is made under. */
  checkNew(draft: StoredSubscription): Promise<Right> {
    return this.decide(draft);
  }

  private async decide(subscription: StoredSubscription, view?: EhrCalls): Promise<Right> {
    const { subscriber, patient, topic } = subscription;
    let scopes: ReadonlySet<string> | undefined;
    if (subscriber.grantId !== undefined && this.appGrants !== undefined) {
      // A grant the person revoked, signed out of or let run out; or replaced by a consent whose scopes no longer reach the topic.
      scopes = await this.appGrants.grants.scopesHeld({
        grantId: subscriber.grantId, personId: subscriber.personId, clientId: subscriber.clientId,
        ...(subscriber.smartPatient === undefined ? {} : { smartPatient: subscriber.smartPatient }),
      });
      if (scopes === undefined || !this.appGrants.scopesReach(subscription, scopes)) return lost('app-revoked');
    }
    let access: PatientAccess;
    try {
      const caller = { personId: subscriber.personId, ...(subscriber.smartPatient === undefined ? {} : { smartPatient: subscriber.smartPatient }) };
      access = await this.policy.resolve(caller, patient, view);
      // The patient's record was read from the EHR after the relationships, which may take seconds: a delegate's right
      // that ended meanwhile (a grant revoked or run out) is seen only by deciding it again (hostile review helper-137, F1).
      if (isDelegated(access.basis)) access = { ...access, ...await this.policy.basisNow(caller, patient) };
    } catch (err) {
      if (err instanceof DomainError && err.code === 'ACCESS_DENIED') return lost('right-lost');
      throw err;
    }
    const holds = (reads: readonly ReadName[]): RightHolds => ({ kind: 'holds', access, reads, ...(scopes === undefined ? {} : { scopes }) });
    const feed = feedOfTopic(topic);
    if (feed === 'proxy') return access.basis === 'self' ? holds([]) : lost('right-lost');
    if (feed === 'access') return reachesOperation(access, 'getAccessLog') && !this.ageWithholds('getAccessLog', access) ? holds([]) : lost('right-lost');
    // A read an age limit now takes whole (a guardian of a child of 13 and the journal) is no longer
    // theirs to follow: its records are not "gone", and are never told as gone.
    const reads = readsOfTopic(topic).filter((read) => reachesRead(access, read) && !this.ageWithholds(read, access));
    return reads.length > 0 ? holds(reads) : lost('right-lost');
  }

  private ageWithholds(operation: string, access: PatientAccess): boolean {
    const { policy, clock, zone } = this.release;
    return policy !== undefined && ageLimitWithholds(policy, operation, access.basis, access.patientId, clock.now(), zone);
  }
}
