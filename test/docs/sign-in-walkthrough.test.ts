/**
 * Issue 55 item 9: docs/sign-in.md#set-it-up-in-an-hour is followed as written, to the first FHIR read:
 * its `npm run sign-in-keys` makes the key files, its clients file is written as its block says, its
 * `npm run region-login` stands in for the region's login, and the service starts on its settings block
 * (each name one the service reads, the stand-in's four as the stand-in prints them) with only what
 * must differ on a test machine changed (ports, the database, the folder). Märta then signs in at the
 * stand-in, picks Lilla, allows, and the patient app's token reads Lilla's record on /fhir. The app's
 * page names the app as the block's `client_name#sv`/`#en` say (issue 55 item 6: the docs' example is
 * what a person sees). docs/running.md names every SIGN_IN_* setting.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAND_IN_DEFAULTS } from '../../src/dev/region-login/region-login.js';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { listen } from '../../src/start/listen.js';
import { HttpBrowser, readForm } from '../dev/demo-issuer/http-browser.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../support/database.js';
import { startStandIn, stopStandIn, type StandIn } from '../support/region-login-command.js';
import { runScript, RUNS_COMMANDS } from '../support/run-script.js';
import { configReads } from '../support/settings-tables.js';
import { walk } from '../support/sign-in-walk.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';
import { freePort } from '../../bench/util.js';

/** A file of the repository, as text. */
const repositoryFile = (file: string): string => readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8');
const DOC = repositoryFile('docs/sign-in.md');
const SECTION = DOC.slice(DOC.indexOf('## Set it up in an hour'), DOC.indexOf('\n## ', DOC.indexOf('## Set it up in an hour') + 1));
/** The section's shell blocks, their lines unindented. */
const BLOCKS = [...SECTION.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => (m[1] ?? '').split('\n').map((l) => l.replace(/^ {3}/, '')).join('\n'));
const DOC_BASE = 'http://127.0.0.1:8080';


/** The settings block: each `export NAME=VALUE` line, in order. */
const SETTINGS = new Map([...(BLOCKS.find((b) => b.includes('npm start')) ?? '').matchAll(/^export ([A-Z_]+)=(.*)$/gm)].map((m) => [m[1] as string, (m[2] ?? '').replace(/^"|"$/g, '')]));
const CLIENTS = /<<'EOF'\n([\s\S]*?)\nEOF/.exec(BLOCKS.find((b) => b.includes('clients.json')) ?? '')?.[1] ?? '';

describe('issue 55 item 9: docs/running.md names every SIGN_IN_* setting', () => {
  it('in its settings section, each one the service reads', () => {
    const running = repositoryFile('docs/running.md');
    const named = configReads().filter((name) => name.startsWith('SIGN_IN_'));
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter((name) => !running.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('issue 55 item 9: the walkthrough, its blocks as written', () => {
  it('has the commands, the clients file, and a settings block of settings the service reads', () => {
    expect(BLOCKS.map((b) => b.trim().split('\n')[0])).toEqual(['npm ci', 'cat > .sign-in/clients.json <<\'EOF\'', 'npm run region-login -- .sign-in', expect.stringMatching(/^createdb /)]);
    expect(BLOCKS[0]).toContain('npm run sign-in-keys -- .sign-in');
    expect([...SETTINGS.keys()].filter((name) => !configReads().includes(name))).toEqual([]);
    expect(SETTINGS.get('SIGN_IN_LOGIN_ISSUER')).toBe(`http://${STAND_IN_DEFAULTS.host}:${STAND_IN_DEFAULTS.port}`);
    expect(SETTINGS.get('PUBLIC_BASE_URL')).toBe(DOC_BASE);
    const [app] = JSON.parse(CLIENTS) as Array<Record<string, unknown>>;
    expect(app).toMatchObject({ client_id: 'patient-app', 'client_name#sv': expect.any(String), 'client_name#en': expect.any(String), redirect_uris: [`${DOC_BASE}/app/`] });
  });
});

describe.skipIf(!await databaseAvailable())('issue 55 item 9: followed as written, to the first FHIR read', RUNS_COMMANDS, () => {
  let dir: string;
  let standIn: StandIn | undefined;
  let runtime: Runtime | undefined;
  let base: string;
  const schema = freshSchema('sign_in_walkthrough');

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-walkthrough-'));
    base = `http://127.0.0.1:${await freePort()}`;
  });
  afterAll(async () => {
    await runtime?.close();
    if (standIn !== undefined) await stopStandIn(standIn.child);
    const pool = adminPool();
    await dropSchema(pool, schema);
    await pool.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('keys, clients, the stand-in, the settings; Märta signs in, picks Lilla, and the app reads her record', async () => {
    const folder = path.join(dir, '.sign-in');
    const keys = await runScript('sign-in-keys.ts', [folder], {});
    expect([keys.code, keys.stderr]).toEqual([0, '']);
    await writeFile(path.join(folder, 'clients.json'), CLIENTS.replaceAll(DOC_BASE, base));
    standIn = await startStandIn(folder, ['--service', base]);
    // The stand-in prints the four settings the block sets for it: the same, but for its port.
    for (const name of ['SIGN_IN_LOGIN_CLIENT_ID', 'SIGN_IN_LOGIN_CLIENT_SECRET_FILE', 'SIGN_IN_LOGIN_ACR']) {
      const printed = new RegExp(`${name}=(\\S+)`).exec(standIn.stdout)?.[1];
      expect([name, printed]).toEqual([name, (SETTINGS.get(name) ?? '').replace(/^\.sign-in/, folder)]);
    }
    // The block's settings, with what must differ here: the ports, the database and schema, the folder.
    const asWritten = Object.fromEntries([...SETTINGS].map(([name, value]) => [name, value.replace(/^\.sign-in/, folder).replace(/^examples\//, path.join(REPOSITORY_ROOT, 'examples/'))]));
    const env = {
      ...asWritten, PUBLIC_BASE_URL: base, SIGN_IN_LOGIN_ISSUER: standIn.issuer, DATABASE_URL: databaseUrl(), SUBSCRIPTION_KEYS: 'region:walkthrough-test-key-0123456789',
      SIGN_IN_SCHEMA: schema, DATA_DIR: path.join(dir, 'data'), PORT: new URL(base).port, METRICS_PORT: '0', LOG_LEVEL: 'silent',
    };
    expect(asWritten.SUBSCRIPTION_KEYS).toMatch(/^region:\$\(openssl rand -hex 16\)$/);
    const config = loadConfig(env);
    runtime = await compose(config, createLogger('silent'));
    await listen(runtime, config);

    // The page names the app as the block registers it.
    const page = await (await request(`${base}/app/`)).body.text();
    const [registered] = JSON.parse(CLIENTS) as Array<Record<string, string>>;
    expect(page).toContain(`<meta name="app-name-en" content="${registered?.['client_name#en'] ?? ''}">`);
    expect(page).toContain(`<meta name="app-name-sv" content="${registered?.['client_name#sv'] ?? ''}">`);
    expect(page).toContain('<meta name="demo" content="off">');

    // Sign in as the app does (fhirclient: PKCE, aud), at the stand-in as Märta, then the picker and consent.
    const browser = new HttpBrowser({ 'accept-language': 'en' });
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${base}/auth/auth`);
    authorize.search = new URLSearchParams({
      response_type: 'code', client_id: 'patient-app', redirect_uri: `${base}/app/`, scope: 'openid fhirUser launch/patient patient/*.rs', state: 'first-read',
      aud: `${base}/fhir`, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    }).toString();
    let at = await browser.get(authorize.href);
    while (at.location !== undefined && !at.location.startsWith(standIn.issuer)) at = await browser.get(new URL(at.location, at.url).href);
    const login = await browser.follow(await browser.get(at.location ?? ''), standIn.issuer);
    expect(login.body).toContain('Development stand-in for the region\'s login');
    const marta = [...login.body.matchAll(/<form[^>]*>[\s\S]*?<\/form>/g)].map((m) => m[0]).find((f) => f.includes('Sign in as Märta Ström')) ?? '';
    const form = readForm(marta);
    const back = await browser.post(new URL(form.action, login.url).href, form.fields);
    const walked = await walk(browser, new URL(back.location ?? '', back.url).href, { pick: 'Lilla', redirect: `${base}/app/` });
    const code = walked.redirect?.searchParams.get('code');
    expect(code).toEqual(expect.any(String));
    const token = await request(`${base}/auth/token`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code ?? '', redirect_uri: `${base}/app/`, client_id: 'patient-app', code_verifier: verifier }).toString(),
    });
    const tokens = (await token.body.json()) as { access_token: string; patient: string };
    const read = await request(`${base}/fhir/Patient/${tokens.patient}`, { headers: { authorization: `Bearer ${tokens.access_token}`, accept: 'application/fhir+json' } });
    expect(read.statusCode).toBe(200);
    expect(((await read.body.json()) as { name?: Array<{ given?: string[] }> }).name?.[0]?.given).toContain('Lilla');
    expect(await readFile(path.join(folder, 'region-client-secret'), 'utf8')).not.toBe('');
  });
});
