// Just enough of a browser to drive the demo authorization server's sign-in and consent pages over real HTTP:
// a path-aware cookie jar, manual redirects, and the forms on those pages.
import { request, type Dispatcher } from 'undici';

export interface Cookie { name: string; value: string; path: string }

export interface Page {
  status: number; url: string; location?: string; body: string; language?: string;
  /** The load balancer's X-Served-By, where one answered (test/deploy/support/haproxy.ts). */
  servedBy?: string;
  /** Every header of the answer, for a test of a page's CSP and the like. */
  headers?: Record<string, string | string[] | undefined>;
  /** The Connection header, where one was sent (`close` after a body the server did not read). */
  connection?: string;
}

export class HttpBrowser {
  private readonly cookies: Cookie[] = [];
  /** Every Set-Cookie line the browser was answered with, in order, and by which address, for a test to read the attributes of. */
  readonly setCookies: Array<{ url: string; line: string }> = [];

  /**
   * `headers`: sent with every request, as a browser's own (Accept-Language); `dispatcher`: how to
   * connect (an https service whose certificate a test CA signed).
   */
  constructor(private readonly headers: Record<string, string> = {}, private readonly dispatcher?: Dispatcher) {}

  /** A cookie another site put in this browser (cookie tossing: a sibling subdomain, a plain-http page of the domain). */
  plant(cookie: Cookie): void {
    this.cookies.push(cookie);
  }

  /** The cookies the browser holds, as a script in it could not read them but an attacker reads his own. */
  held(): readonly Cookie[] {
    return [...this.cookies];
  }

  async get(url: string): Promise<Page> {
    return this.send('GET', url);
  }

  /** `form` as fields, or as pairs where a name is repeated. */
  async post(url: string, form: Record<string, string> | [string, string][], extra: Record<string, string> = {}): Promise<Page> {
    return this.send('POST', url, new URLSearchParams(form).toString(), extra);
  }

  /** A request of another method, as a script or a tool in this browser would send it. */
  async ask(method: string, url: string): Promise<Page> {
    return this.send(method, url);
  }

  /** Follows redirects until one leaves `origin` (the client's redirect_uri) or a page answers. */
  async follow(page: Page, origin: string): Promise<Page> {
    let current = page;
    for (let hops = 0; current.location && hops < 10; hops += 1) {
      const next = new URL(current.location, current.url);
      if (next.origin !== origin) return current;
      current = await this.get(next.href);
    }
    return current;
  }

  /** `extra`: headers of this request alone (what the browser says of where a form came from). */
  private async send(method: string, url: string, body?: string, extra: Record<string, string> = {}): Promise<Page> {
    const target = new URL(url);
    if (target.hostname !== '127.0.0.1') throw new Error(`test browser refuses ${target.hostname}`);
    const headers: Record<string, string> = { accept: 'text/html', ...this.headers, ...extra };
    const cookie = this.cookieHeader(target.pathname);
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await request(target, { method: method as Dispatcher.HttpMethod, headers, body, ...(this.dispatcher === undefined ? {} : { dispatcher: this.dispatcher }) });
    this.setCookies.push(...[response.headers['set-cookie'] ?? []].flat().map((line) => ({ url: target.href, line })));
    this.store(response.headers['set-cookie']);
    const location = response.headers.location;
    return {
      status: response.statusCode,
      url: target.href,
      ...(typeof location === 'string' ? { location: new URL(location, target).href } : {}),
      ...(typeof response.headers['content-language'] === 'string' ? { language: response.headers['content-language'] } : {}),
      ...(typeof response.headers['x-served-by'] === 'string' ? { servedBy: response.headers['x-served-by'] } : {}),
      headers: response.headers,
      ...(typeof response.headers.connection === 'string' ? { connection: response.headers.connection } : {}),
      body: await response.body.text(),
    };
  }

  /** As a browser sends them (RFC 6265 §5.4): those of the longer path first, then in the order they were set. */
  private cookieHeader(path: string): string {
    return this.cookies
      .filter((c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c, order) => ({ c, order }))
      .sort((a, b) => b.c.path.length - a.c.path.length || a.order - b.order)
      .map(({ c }) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private store(setCookie: string | string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const pathAttr = attributes.find((a) => a.toLowerCase().startsWith('path='));
      const path = pathAttr ? pathAttr.slice(5) : '/';
      const expired = attributes.some(
        (a) => a.toLowerCase().startsWith('expires=') && Date.parse(a.slice(8)) <= Date.now(),
      );
      const index = this.cookies.findIndex((c) => c.name === name && c.path === path);
      if (index >= 0) this.cookies.splice(index, 1);
      if (!expired && value !== '') this.cookies.push({ name, value, path });
    }
  }
}

/** The action and fields of the first form on an HTML page (hidden inputs included). */
export function readForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form?.[1]) throw new Error('no form on page');
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[name] = value ?? '';
  }
  return { action: decodeEntities(form[1]), fields };
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/').replace(/&#(\d+);/g, (_m, code: string) =>
    String.fromCharCode(Number(code)),
  );
}
