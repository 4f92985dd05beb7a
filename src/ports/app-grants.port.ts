/**
 * Whether an app is still signed in for what a subscription was made under (docs/sign-in.md): its
 * grant of the service's own authorization server alive, or the grant a later consent of the same
 * person, app and pick replaced it with (one grant each: signing in again replaces it). A grant the
 * person revoked or signed out of, or that outlived its lifetime with no sign-in since, holds nothing:
 * the subscription is told nothing more (docs/notifications.md#checked-at-sending).
 */
export interface HeldGrant {
  grantId: string;
  /** The person's identity number, whose grant it is. */
  personId: string;
  clientId: string;
  /** The launch patient the grant's pick named (the token's `smart_patient`); absent for a plain grant. */
  smartPatient?: string;
}

export interface AppGrants {
  /**
   * The scopes of `held`'s grant, or of its successor, while it is alive and its person's for its app;
   * undefined when none holds; throws when it cannot be asked. A successor's scopes are what the person
   * consented to last: a new consent may narrow them (docs/notifications.md#checked-at-sending).
   */
  scopesHeld(held: HeldGrant): Promise<ReadonlySet<string> | undefined>;
}
