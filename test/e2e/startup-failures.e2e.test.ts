/**
 * Issue 22 item 5: a start that cannot work ends in one line naming the setting and what to do,
 * with exit code 1, never a JSON stack: the real service (`node src/server.ts`, as `npm start` runs
 * it) with each of its ports already taken, and with a setting that is not a number.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runService, runServiceOnScreen } from '../support/spawn-service.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

/** A service that starts after all is stopped once it listens, so a refusal that did not happen fails fast. */
const start = (env: Record<string, string>, dataDir: string) => runService(env, dataDir, (stdout) => stdout.includes('service listening'));

/** The lines the service wrote to stderr itself (oidc-provider's own development warning aside). */
const ownLines = (stderr: string): string[] => stderr.split('\n').filter((l) => l !== '' && !l.startsWith('oidc-provider WARNING'));

describe('issue 22 item 5: start-up failures are one line naming the setting', () => {
  let dataDir: string;
  let holder: Server;
  let taken: number;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-startup-'));
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    taken = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
    await rm(dataDir, { recursive: true, force: true });
  });

  it.each(['PORT', 'METRICS_PORT', 'DEMO_AUTH_PORT'])('%s already in use: exit 1 and one line naming it and what to do', async (setting) => {
    const ended = await start({ [setting]: String(taken) }, dataDir);
    expect(ended.code).toBe(1);
    expect(ownLines(ended.stderr)).toEqual([
      `cannot start: ${setting} ${taken} is in use on 127.0.0.1: set ${setting} to a free port (${setting}=0 lets the system pick one) or stop what holds it`,
    ]);
    for (const out of [ended.stdout, ended.stderr]) {
      expect(out).not.toMatch(/"stack"|EADDRINUSE|\n\s+at /);
    }
  }, 70_000);

  // Issue 47 item 1: the demo issuer, then the metrics listener, open before the API; the lines they
  // logged sat in the logger's buffer and reached the screen after the refusal, which then scrolled away.
  it.each(['PORT', 'METRICS_PORT', 'DEMO_AUTH_PORT'])('issue 47 item 1: %s already in use: the refusal is the last line on the screen', async (setting) => {
    const ended = await runServiceOnScreen({ [setting]: String(taken) }, dataDir);
    expect(ended.code).toBe(1);
    const lines = ended.screen.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.at(-1)).toMatch(new RegExp(`^cannot start: ${setting} ${taken} is in use`));
  }, 70_000);

  // Hostile review (helper-84, F1): a name that does not resolve ended in `Error: getaddrinfo ENOTFOUND`,
  // the same for HOST and METRICS_HOST, naming neither.
  it.each(['HOST', 'METRICS_HOST'])('%s a name that does not resolve: exit 1 and one line naming it and what to do', async (setting) => {
    const ended = await start({ [setting]: 'no-such-host.invalid', ALLOW_PLAIN_HTTP: 'true' }, dataDir);
    expect(ended.code).toBe(1);
    expect(ownLines(ended.stderr)).toEqual([
      `cannot start: ${setting} no-such-host.invalid is not a name this machine resolves: set ${setting} to one of its addresses (127.0.0.1 by default)`,
    ]);
    for (const out of [ended.stdout, ended.stderr]) expect(out).not.toMatch(/"stack"|ENOTFOUND|getaddrinfo|\n\s+at /);
  }, 70_000);

  it('a setting that is not a number: exit 1 and the one line of the setting', async () => {
    const ended = await start({ EHR_TIMEOUT_MS: 'soon' }, dataDir);
    expect(ended.code).toBe(1);
    expect(ownLines(ended.stderr)).toEqual(['cannot start: EHR_TIMEOUT_MS must be an integer from 1 to 600000']);
    expect(ended.stdout).toBe('');
  }, 70_000);

  it('issue 34 item 2: EHR_ADAPTER=fhir-r4 with a policy in the XML EHR\'s levels: exit 1 and one line naming the rule, before anything listens', async () => {
    const ended = await start({
      EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1',
      RELEASE_POLICY_FILE: path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json'),
    }, dataDir);
    expect(ended.code).toBe(1);
    const lines = ownLines(ended.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^cannot start: RELEASE_POLICY_FILE \S+release-policy\.json .*EHR_ADAPTER=fhir-r4.*noteSecrecyLevels names "Sekretess"/);
    expect(ended.stdout).toBe('');
  }, 70_000);

  it('issue 52 item 18: outside demo mode without RELEASE_POLICY_FILE: exit 1, one line naming it and RELEASE_POLICY_FILE=none, nothing made', async () => {
    const data = await mkdtemp(path.join(tmpdir(), 'pdas-startup-policy-'));
    try {
      const ended = await start({ AUTH_ISSUER: 'http://127.0.0.1:1/issuer', SUBSCRIPTION_KEYS: 'app:subscription-key-pppppppppppp' }, data);
      expect(ended.code).toBe(1);
      expect(ownLines(ended.stderr)).toEqual(['cannot start: RELEASE_POLICY_FILE must be set outside demo mode: name the region\'s release policy file '
        + '(docs/release-policy.md), or set RELEASE_POLICY_FILE=none to withhold nothing from patients and their delegates']);
      expect(ended.stdout).toBe('');
      expect(await readdir(data)).toEqual([]);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 70_000);

  it('issue 52 item 18: demo mode without RELEASE_POLICY_FILE runs the example policy and its banner says so', async () => {
    const data = await mkdtemp(path.join(tmpdir(), 'pdas-startup-policy-'));
    try {
      const ended = await runService({}, data, (stdout) => stdout.includes('README.md has a curl session'));
      // dist/examples, the copy `npm run build` makes beside the service (the image holds it too).
      expect(ended.stdout).toContain(`release policy: the example ${path.join(REPOSITORY_ROOT, 'dist', 'examples', 'release-policy.json')} `
        + '(RELEASE_POLICY_FILE names another; RELEASE_POLICY_FILE=none withholds nothing)');
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  }, 70_000);

  describe('issue 34 item 3: the demo issuer never runs beside a real deployment', () => {
    const PASSWORD = 'db-password-not-to-be-printed';
    const KEY = 'subscription-key-gggggggggggg';
    const REMOTE_FHIR = { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'https://fhir.region.example/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' };
    const cases: Array<[string, () => Promise<Record<string, string>>]> = [
      ['the review\'s case: fhir-r4 at a remote server, SUBSCRIPTION_KEYS and DATABASE_URL', async () => ({
        ...REMOTE_FHIR, SUBSCRIPTION_KEYS: `app:${KEY}`, DATABASE_URL: `postgres://pdas:${PASSWORD}@127.0.0.1:1/pdas`,
      })],
      ['DATABASE_URL', async () => ({ DATABASE_URL: `postgres://pdas:${PASSWORD}@127.0.0.1:1/pdas` })],
      ['REDIS_URL', async () => ({ REDIS_URL: 'redis://127.0.0.1:1' })],
      ['SUBSCRIPTION_KEYS', async () => ({ SUBSCRIPTION_KEYS: `app:${KEY}` })],
      ['TLS_CERT_FILE', async () => {
        const pem = path.join(dataDir, 'placeholder.pem');
        await writeFile(pem, 'placeholder');
        return { TLS_CERT_FILE: pem, TLS_KEY_FILE: pem };
      }],
      ['EHR_BASE_URL', async () => ({ EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'https://ehr.region.example/' })],
      ['DELEGATION_REGISTRY_URL', async () => ({ DELEGATION_REGISTRY: 'xml-http', DELEGATION_REGISTRY_URL: 'https://registry.region.example/' })],
    ];

    it.each(cases)('issue 34 item 3: %s without AUTH_ISSUER: exit 1, one line naming AUTH_ISSUER, no demo issuer, key or client made', async (_name, envOf) => {
      const data = await mkdtemp(path.join(tmpdir(), 'pdas-startup-demo-'));
      try {
        const env = await envOf();
        const ended = await start(env, data);
        expect(ended.code).toBe(1);
        const lines = ownLines(ended.stderr);
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^cannot start: AUTH_ISSUER /);
        expect(lines[0]).not.toMatch(new RegExp(`${PASSWORD}|${KEY}`));
        expect(ended.stdout).toBe('');
        expect(await readdir(data)).toEqual([]);
      } finally {
        await rm(data, { recursive: true, force: true });
      }
    }, 70_000);

    it.each([
      ['a loopback xml-http simulator', { EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:1' }],
      ['a loopback FHIR server', { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:1/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' }],
    ])('issue 34 item 3: %s without AUTH_ISSUER still starts in demo mode', async (_name, env) => {
      const data = await mkdtemp(path.join(tmpdir(), 'pdas-startup-demo-'));
      try {
        const ended = await runService(env, data, (stdout) => stdout.includes('DEMO MODE'));
        expect(ended.stdout).toContain('DEMO MODE');
        expect(await readdir(data)).toEqual(expect.arrayContaining(['demo-auth.json', 'demo-subscription-key']));
      } finally {
        await rm(data, { recursive: true, force: true });
      }
    }, 70_000);
  });
});
