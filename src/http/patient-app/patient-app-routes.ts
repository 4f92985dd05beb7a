/**
 * The patient app at `{basePath}/app/` (docs/patient-app.md): the files `npm run build` bundles into
 * dist/app, served by the service itself with headers that keep the page to its own origin and the
 * authorization server. Registered in demo mode only, with the FHIR API on (src/http/app.ts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DisplayName } from '../../domain/operations/operation.js';
import { appAddressFor } from './app-address.js';
import { appFileOf } from './app-files.js';
import { appHeaders } from './app-headers.js';

/** dist/app of this repository, from src/http/patient-app as from its compiled twin dist/http/patient-app. */
export const DEFAULT_PATIENT_APP_DIR = fileURLToPath(new URL('../../../dist/app/', import.meta.url));

/** The scopes of the Sharing tab's calls (docs/proxies.md): the person's own grants, read and changed. */
export const PROXY_SCOPES: readonly string[] = ['user/Proxy-read', 'user/Proxy-write'];

export const NOT_BUILT = 'The patient app is not built: run `npm run build` (or `npm run build:app`), then reload this page.\n';

export interface PatientAppOptions {
  /** BASE_PATH: the page names its files below `{basePath}/app/`. */
  basePath: string;
  /** The authorization server the page's token request goes to (connect-src). */
  issuer: string;
  /** PUBLIC_BASE_URL: the page opened at another loopback name is sent there (app-address.ts). */
  publicBaseUrl?: string;
  /**
   * The demo subscription key, put in the page (demo mode only) for its calls on the COS door (the
   * Sharing tab, docs/patient-app.md): a key ships inside an app anyway, and the demo's is printed at start.
   */
  subscriptionKey?: string;
  /**
   * PROXY_GRANTS is on: the page shows its Sharing tab, and asks for these of the proxy scopes at sign-in
   * (those the authorization server offers; none where it offers none, as with PROXY_GRANTS off).
   */
  sharing?: { scopes: readonly string[] };
  /** Its name in Swedish and English, as its registration says it (issue 55 item 6: one name per language everywhere). */
  names: DisplayName;
  /** Demo mode: the page says so after its name. */
  demo: boolean;
  /** Where the built files are; DEFAULT_PATIENT_APP_DIR unless a test says otherwise. */
  dir?: string;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

const isMissing = (err: unknown): boolean => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

export async function patientAppRoutes(app: FastifyInstance, opts: PatientAppOptions): Promise<void> {
  const root = opts.dir ?? DEFAULT_PATIENT_APP_DIR;
  const headers = appHeaders(opts.issuer);
  // index.html names its files from the app's own address, so it works at `/app` as at `/app/`.
  const appBase = escapeHtml(`${opts.basePath}/app/`);
  const subscriptionKey = escapeHtml(opts.subscriptionKey ?? '');
  const sharing = opts.sharing === undefined ? 'off' : 'on';
  const sharingScopes = escapeHtml(opts.sharing?.scopes.join(' ') ?? '');
  const appAddress = opts.publicBaseUrl === undefined ? () => undefined : appAddressFor(opts.publicBaseUrl);
  // What the page fills in from the service: its own address, its names, and what the region offers.
  const fields: Record<string, string> = {
    '%APP_BASE%': appBase, '%SUBSCRIPTION_KEY%': subscriptionKey, '%SHARING%': sharing, '%SHARING_SCOPES%': sharingScopes,
    '%APP_NAME_SV%': escapeHtml(opts.names.sv), '%APP_NAME_EN%': escapeHtml(opts.names.en), '%DEMO%': opts.demo ? 'on' : 'off',
    '%APP_TITLE%': escapeHtml(`${opts.names.en}${opts.demo ? ' (demo)' : ''}`),
  };
  const filled = (index: string): string => index.replace(/%[A-Z_]+%/g, (field) => fields[field] ?? field);

  const serve = async (relative: string, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(headers);
    const isPage = relative === '' || relative === 'index.html';
    const canonical = isPage ? appAddress(request.headers.host, request.url) : undefined;
    if (canonical !== undefined) return reply.redirect(canonical, 302);
    let index: string;
    try {
      index = await readFile(path.join(root, 'index.html'), 'utf8');
    } catch (err) {
      if (!isMissing(err)) throw err;
      return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    }
    const file = appFileOf(root, relative);
    if (file === undefined) return reply.callNotFound();
    if (isPage) return reply.type(file.type).send(filled(index));
    let body: Buffer;
    try {
      body = await readFile(file.path);
    } catch (err) {
      if (isMissing(err)) return reply.callNotFound();
      throw err;
    }
    return reply.type(file.type).send(body);
  };

  app.get('/app', { schema: { hide: true } }, async (request, reply) => serve('', request, reply));
  app.get<{ Params: { '*': string } }>('/app/*', { schema: { hide: true } }, async (request, reply) => serve(request.params['*'], request, reply));
}
