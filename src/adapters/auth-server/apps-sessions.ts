// The connected-apps page's own session (docs/sign-in.md#the-connected-apps-page). The page lists a
// person's apps and the people they act for, and revokes them, so it is never shown on the strength of
// the session a SMART sign-in left in the browser (an hour of oidc-provider's, on a shared computer the
// next person's to use): it opens only after a login at the region for the page itself (region-login.ts),
// and that login's session is short and the page's alone.
//
// The browser holds a random value in a cookie of the same kind as the login's binding (login-binding.ts:
// `__Host-` on https, so no sibling subdomain or plain-http page can plant one; HttpOnly; SameSite=Lax,
// so the region's redirect back, which opens it, sets it and the page's own forms carry it, and no other
// site's form does). The shared store keeps only the value's SHA-256, with the person and when they
// signed in, so any instance serves the page and a copy of the store opens no session. It lasts
// APPS_SESSION_SECONDS from the login, however much it is used; "Sign out" ends it at once.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { PageSession, PageSessions } from './connected-apps-http.js';
import { cookieAttributes, cookieNameIn, cookieValues, type CookieScope } from './login-binding.js';

/** How long the page stays open after its login: long enough to look and revoke, short for the next person at a shared computer. */
export const APPS_SESSION_SECONDS = 10 * 60;
const NAME = 'pdas_apps';
const VALUE = /^[\w-]{43}$/;

/** The shared store's rows of page sessions (postgres-models.ts, model AppsSession). */
export interface AppsSessionStore {
  upsert(id: string, payload: Record<string, unknown>, expiresIn: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  destroy(id: string): Promise<void>;
}

const idOf = (value: string): string => createHash('sha256').update(value).digest('hex');

export class AppsSessions implements Pick<PageSessions, 'current' | 'end'> {
  private readonly name: string;

  /** `now`: the clock, in milliseconds (the sessions' ages are measured by it). */
  constructor(private readonly store: AppsSessionStore, private readonly scope: CookieScope, private readonly now: () => number = Date.now) {
    this.name = cookieNameIn(NAME, scope);
  }

  /** The browser's open page session: its id (the store's key, which the page's forms are bound to) and the person; none past its lifetime. */
  async current(req: IncomingMessage): Promise<PageSession | undefined> {
    const nowSeconds = Math.floor(this.now() / 1000);
    for (const value of cookieValues(req, this.name)) {
      if (!VALUE.test(value)) continue;
      const id = idOf(value);
      const row = await this.store.find(id);
      if (typeof row?.accountId !== 'string' || typeof row.signedInAt !== 'number') continue;
      // The row expires with the session too; the age is checked here as well, so the store's sweep is never what ends one.
      const age = nowSeconds - row.signedInAt;
      if (age >= 0 && age < APPS_SESSION_SECONDS) return { id, accountId: row.accountId };
    }
    return undefined;
  }

  /** A new page session for `accountId`, who just signed in at the region in this browser (any earlier one of it ended): its Set-Cookie header. */
  async open(req: IncomingMessage, accountId: string): Promise<string> {
    await this.endAll(req);
    const value = randomBytes(32).toString('base64url');
    await this.store.upsert(idOf(value), { accountId, signedInAt: Math.floor(this.now() / 1000) }, APPS_SESSION_SECONDS);
    return `${this.name}=${value}; ${cookieAttributes(this.scope, APPS_SESSION_SECONDS)}`;
  }

  /** Ends the browser's page session ("Sign out"): the Set-Cookie header that clears its cookie. */
  async end(req: IncomingMessage): Promise<string> {
    await this.endAll(req);
    return `${this.name}=; ${cookieAttributes(this.scope, 0)}; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }

  private async endAll(req: IncomingMessage): Promise<void> {
    for (const value of cookieValues(req, this.name)) if (VALUE.test(value)) await this.store.destroy(idOf(value));
  }
}
