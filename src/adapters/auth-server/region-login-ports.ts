// What the region's login (region-login.ts) is given and tells: its settings, the events it records, the
// store of logins in progress, what oidc-provider holds of an interaction, and where the connected-apps
// page's own login ends. Apart from the login's steps so each side of it is read on its own.
import type { IncomingMessage } from 'node:http';
import type { JWK } from 'jose';
import type { LoginRefusal } from './region-login-answers.js';

export interface RegionLoginSettings {
  /** SIGN_IN_LOGIN_ISSUER: https, or http on a loopback address only. */
  issuer: string;
  clientId: string;
  /** client_secret_basic with this secret, or private_key_jwt with `clientKey`. */
  clientSecret?: string;
  clientKey?: JWK;
  scopes: string;
  /** SIGN_IN_LOGIN_ACR (required): sent as acr_values; the ID token's acr must be one of them. */
  acr: readonly string[];
  identityClaim: string;
  /** `{PUBLIC_BASE_URL}/auth/callback`, registered at the region. */
  redirectUri: string;
}

/**
 * What happened at the region, for the audit trail, the log and the counters. `reason` is for operators
 * and never holds a token, a secret or an identity number. `loginSucceeded` resolves once the login is
 * recorded; when it rejects, nobody is signed in.
 */
export interface LoginEvents {
  loginSucceeded(input: { accountId: string; subject: string; clientId: string | undefined; acr: string | undefined; sourceAddress: string }): Promise<void>;
  loginFailed(input: { kind: LoginRefusal; reason: string; clientId: string | undefined; sourceAddress: string }): Promise<void>;
  discoveryFailed(error: Error): void;
}

/** The shared store's rows of logins in progress (postgres-models.ts, model RegionLogin). */
export interface LoginStore {
  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  /** Marks the row consumed if no request did (a compare-and-set); rejects with UsedElsewhereFirst if one did first. */
  consume(id: string): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findAllByUid(uid: string): Promise<Array<Record<string, unknown>>>;
  destroy(id: string): Promise<void>;
}

/**
 * What oidc-provider holds of an interaction: none (`gone`: taken up or expired, for good, as the store never
 * stores an ended interaction again), the region login's (`region-login`: in progress, finished or
 * cancelled, and not yet taken up: a cancelled one may still have a login finished into it), or the
 * picker's or the consent's, which oidc-provider keeps to the session it was begun in (`other`).
 */
export type InteractionState = 'gone' | 'region-login' | 'other';

/** Where a login for the connected-apps page ends: the page's address, and its session opened for the person (the Set-Cookie header). */
export interface PageLogins {
  href: string;
  open(req: IncomingMessage, accountId: string): Promise<string>;
}
