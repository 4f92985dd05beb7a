// A browser's way through the service's own sign-in (docs/sign-in.md) as a script would take it:
// every redirect followed (the service, the region), the picker's `pick` posted, consent given, until
// the app's redirect URI or a page that is none of those.
import { readForm, type HttpBrowser, type Page } from '../dev/demo-issuer/http-browser.js';
import { APP_REDIRECT } from './sign-in-service.js';

export interface Walked { redirect?: URL; page: Page; seen: string[] }

/**
 * `pick`: the picker entry to post, by its visible text; `via` rewrites each service URL before it is
 * asked (another instance, as a load balancer would); `redirect`: the app's redirect URI (APP_REDIRECT's app by default).
 */
export async function walk(browser: HttpBrowser, url: string, options: { pick?: string; via?: (url: string) => string; redirect?: string } = {}): Promise<Walked> {
  const via = options.via ?? ((u: string) => u);
  const redirect = options.redirect ?? APP_REDIRECT;
  const seen: string[] = [];
  let page = await browser.get(via(url));
  for (let hops = 0; hops < 30; hops += 1) {
    seen.push(page.url);
    if (page.location !== undefined) {
      if (page.location.startsWith(redirect)) return { redirect: new URL(page.location), page, seen };
      page = await browser.get(via(page.location));
      continue;
    }
    if (page.status !== 200 || !/<form/.test(page.body)) return { page, seen };
    const form = readForm(page.body);
    if (form.fields.prompt === 'patient') {
      const value = [...page.body.matchAll(/<form[^>]*>([\s\S]*?)<\/form>/g)].find((f) => f[1]?.includes(options.pick ?? '(yourself)'))?.[1];
      const patient = /name="patient" value="([^"]+)"/.exec(value ?? '')?.[1];
      if (patient === undefined) return { page, seen };
      page = await browser.post(via(new URL(form.action, page.url).href), { ...form.fields, patient });
    } else if (form.fields.prompt === 'consent' || (form.fields.logout === 'yes' && form.fields.xsrf !== undefined && form.action.endsWith('/session/end/confirm'))) {
      // Consent given; or the page that posts itself on when someone else signs in than the browser's
      // session held (oidc-provider ends the earlier person's session first), as a browser's script does.
      page = await browser.post(via(new URL(form.action, page.url).href), form.fields);
    } else return { page, seen };
  }
  throw new Error('the sign-in did not end');
}

/** The form of `html` whose action is an interaction's `/abort`: the cancel, which takes the page's form token. */
export function abortForm(html: string): { action: string; fields: Record<string, string> } {
  const form = [...html.matchAll(/<form[^>]*action="([^"]*\/abort)"[^>]*>[\s\S]*?<\/form>/gi)][0];
  if (form === undefined) throw new Error('no cancel form on the page');
  return readForm(form[0]);
}

/** `browser` cancels the sign-in at its interaction page `url`: the cancel page's form posted, as its button does. */
export async function cancelAt(browser: HttpBrowser, url: string): Promise<Page> {
  const page = await browser.get(url.endsWith('/abort') ? url : `${url}/abort`);
  const form = abortForm(page.body);
  return browser.post(new URL(form.action, page.url).href, form.fields);
}
