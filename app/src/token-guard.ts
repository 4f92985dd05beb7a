/**
 * Where the person's tokens may go from this page: the FHIR server they signed in to, the sharing API
 * beside it, and the issuer they signed in at. Every request the page makes with an `Authorization`
 * header to anywhere else is refused before it leaves. fhirclient sends the token with every request
 * it makes, to wherever a `next` link or a 201 answer's `Location` header leads (its lib.js): the
 * links are checked where they are read (load.ts), and this is the one place every request passes,
 * fhirclient's included. fhirclient takes `window.fetch` once, as it loads, so main.ts imports this
 * module before it (hostile review of the app's links).
 */
import { below } from './server-address.js';

/** The addresses a token may go to, each ending in `/`; none until the sign-in is done. */
const allowed: string[] = [];

/** After the sign-in: the token may go to these addresses and below, and nowhere else. */
export function sendTokensOnlyTo(addresses: readonly string[]): void {
  allowed.splice(0, allowed.length, ...addresses.map(below));
}

/** Whether a request to `url` with `headers` may leave the page. */
function mayLeave(url: string, headers: Headers): boolean {
  return !headers.has('authorization') || allowed.some((a) => url.startsWith(a));
}

const pageFetch = window.fetch.bind(window);
window.fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
  if (!mayLeave(url, headers)) return Promise.reject(new TypeError(`the token goes to the FHIR server and the sign-in service only, not to ${new URL(url).origin}`));
  return pageFetch(input, init);
};
