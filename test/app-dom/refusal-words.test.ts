/**
 * The Sharing and Connected apps tabs say a refusal in the app's own words, in Swedish and English,
 * never the service's `message` (English, written for whoever builds an app, naming members and
 * settings). Failed before: both tabs showed "Det gick inte: <the service's English message>" on a
 * Swedish page, and the connected-apps list its HTTP status text.
 */
import type Client from 'fhirclient/lib/Client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectedAppsView, listConnectedApps } from '../../app/src/connected-apps.js';
import { LABELS, type Lang } from '../../app/src/i18n.js';
import { appsRefusal, RefusedError, sharingRefusal } from '../../app/src/refusal-words.js';
import { giveGrant, listGrants } from '../../app/src/sharing-api.js';
import { emptyDraft, sharingView, type SharingActions } from '../../app/src/sharing.js';
import { fakeDocument, type FakeElement } from './fake-document.js';

const SERVICE_MESSAGE = 'an open grant to this grantee exists already: revoke it first (PROXY_MAX_GRANTS)';
// Signed in at the issuer the SMART configuration below names (app/src/signed-in-issuer.ts).
const ID_TOKEN = `e30.${Buffer.from(JSON.stringify({ iss: 'https://pdas.example/auth' })).toString('base64url')}.sig`;
const client = {
  state: { serverUrl: 'https://pdas.example/fhir', tokenResponse: { id_token: ID_TOKEN } },
  getAuthorizationHeader: () => 'Bearer t',
} as unknown as Client;
const noActions: SharingActions = { invite: () => {}, accept: () => {}, decline: () => {}, end: () => {}, confirm: () => {}, refuse: () => {} };
const textOf = (nodes: Node[]): string => (nodes as unknown as FakeElement[]).map((n) => n.text()).join('\n');

/** Every answer refused with `status`, its body the service's own shape-1 error. */
function refusing(status: number): void {
  vi.stubGlobal('fetch', async (url: string) => (String(url).endsWith('smart-configuration')
    ? new Response(JSON.stringify({ issuer: 'https://pdas.example/auth' }))
    : new Response(JSON.stringify({ message: SERVICE_MESSAGE, errorCode: 'x' }), { status, statusText: 'Conflict' })));
}

describe('a refusal on the Sharing and Connected apps tabs is said in the app\'s own words', () => {
  beforeEach(() => {
    // No subscription key in the page (sharing-api.ts reads its meta element).
    vi.stubGlobal('document', { ...fakeDocument, querySelector: () => null });
    vi.stubGlobal('location', { origin: 'https://pdas.example', pathname: '/app/' });
  });
  afterEach(() => { vi.unstubAllGlobals(); });

  it.each([400, 401, 403, 404, 409, 429, 500, 503])('a change answered %i: its status kept, the service\'s message neither kept nor shown', async (status) => {
    refusing(status);
    const refused = await giveGrant(client, { grantee: '191212121212', categories: ['labresults'] } as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedError);
    expect((refused as RefusedError).status).toBe(status);
    for (const lang of ['sv', 'en'] as const satisfies readonly Lang[]) {
      const said = textOf(sharingView({ draft: emptyDraft(), grants: [], error: sharingRefusal(refused) }, lang, noActions));
      expect(said).toContain(sharingRefusal(refused)[lang]);
      expect(said).not.toContain(SERVICE_MESSAGE);
      expect(said).not.toContain(String(status));
    }
  });

  it('says the statuses of the Sharing tab apart, and both languages for each', () => {
    const words = [400, 401, 403, 404, 409, 429, 503, undefined].map((s) => sharingRefusal(new RefusedError(s)));
    expect(new Set(words.map((w) => w.en)).size).toBe(7);
    expect(sharingRefusal(new RefusedError(401))).toBe(LABELS.failedSignIn);
    expect(sharingRefusal(new RefusedError(429))).toBe(LABELS.failedBusy);
    expect(sharingRefusal(new Error('fetch failed'))).toBe(LABELS.failedLater);
    for (const w of words) expect([w.sv, w.en].every((t) => t.length > 0 && t !== w.sv.toUpperCase())).toBe(true);
  });

  it('the grants that cannot be listed, and the connected apps that cannot, say why in the page\'s language', async () => {
    refusing(403);
    const grants = await listGrants(client).catch((e: unknown) => e as Error);
    const apps = await listConnectedApps(client).catch((e: unknown) => e as Error);
    for (const lang of ['sv', 'en'] as const satisfies readonly Lang[]) {
      const sharing = textOf(sharingView({ draft: emptyDraft(), grants }, lang, noActions));
      const connected = textOf(connectedAppsView(apps, lang, () => {}));
      expect(sharing).toContain(sharingRefusal(grants)[lang]);
      expect(connected).toContain(appsRefusal(apps)[lang]);
      expect(connected).toContain(LABELS.failedRefused[lang]);
      for (const said of [sharing, connected]) {
        expect(said).not.toContain(SERVICE_MESSAGE);
        expect(said).not.toContain('Conflict');
        expect(said).not.toContain('403');
      }
    }
  });
});
