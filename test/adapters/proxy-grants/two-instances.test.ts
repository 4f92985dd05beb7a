/**
 * Two service instances on one database (docs/contract.md §11 "Kept": shared by every instance): a
 * grant given through one and accepted through the other opens a proxy read of the grantor's lab
 * results on both, from the very next request, and a revoke through either closes it on both. Each
 * instance is the real HTTP app with the use case and the delegation check over its own pool; the grant
 * is given, accepted and revoked through each instance's sharing routes, and read through them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../../src/adapters/ehr-embedded/write-state-store.js';
import { PostgresGrantStore } from '../../../src/adapters/proxy-grants/postgres-grant-store.js';
import { StaticSubscriptionKeys } from '../../../src/adapters/subscription-keys/static-subscription-keys.js';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { PatientAccessPolicy } from '../../../src/domain/access/patient-access.js';
import { personFacts } from '../../../src/domain/proxies/people.js';
import { ProxyDelegation } from '../../../src/domain/proxies/proxy-delegation.js';
import { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { buildApp } from '../../../src/http/app.js';
import { createLogger } from '../../../src/http/logging.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';
import { accessLogOver, TEST_HTTP_CONFIG, useCasesOver, verifierFor } from '../../support/app-wiring.js';
import { adminPool, databaseAvailable, databaseUrl, dropSchema, freshSchema } from '../../support/database.js';
import { TestIssuer } from '../../support/test-issuer.js';
import { ANTON, MARTA, TOLVAN } from './grant-stores.js';

const available = await databaseAvailable();
const ZONE = 'Europe/Stockholm';
const KEY = 'two-instances-proxy-key-0123456789';
const SETTINGS = { invitationDays: 7, maxGrants: 1, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 };

interface Instance {
  app: FastifyInstance;
  grants: ProxyGrants;
}

describe.skipIf(!available)('two instances on one database share the grants', () => {
  const schema = freshSchema('proxy_two');
  const clock = new FixedClock(Date.now());
  const closers: Array<() => Promise<void>> = [];
  let dir: string;
  let issuer: TestIssuer;
  let a: Instance;
  let b: Instance;

  async function instance(): Promise<Instance> {
    const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state.json')), ZONE, () => undefined);
    const store = await PostgresGrantStore.open({ connectionString: databaseUrl(), schema });
    closers.push(() => store.close());
    const grants = new ProxyGrants({ store, clock, zone: ZONE, settings: SETTINGS, facts: (p) => personFacts(ehr, p), newId: () => crypto.randomUUID().replaceAll('-', '') });
    const app = await buildApp({
      config: TEST_HTTP_CONFIG, clock, logger: createLogger('silent'), ehr, auditTrail: new MemoryAuditTrail(), tokenVerifier: verifierFor(issuer, clock),
      subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY]])),
      ...useCasesOver(ehr, clock), accessPolicy: new PatientAccessPolicy(ehr, new ProxyDelegation(ehr, store), clock, ZONE),
      readAccessLog: accessLogOver(new MemoryAuditTrail(), clock), proxyGrants: grants,
    });
    await app.ready();
    closers.push(() => app.close());
    return { app, grants };
  }

  /** `person` calls a sharing route of `on`: the status and the grant object(s). */
  async function share(on: Instance, person: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object): Promise<{ status: number; body: unknown }> {
    const token = await issuer.sign({ patient: person, scope: 'user/Proxy-read user/Proxy-write' });
    const res = await on.app.inject({
      method, url: `/patients/proxies/${url}`, headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }),
    });
    return { status: res.statusCode, body: res.json() };
  }

  /** Tolvan reads `what` of Märta's through `on`, as a proxy (he is in no registry of hers): the status. */
  async function proxyRead(on: Instance, what = '/patients/labresults/'): Promise<number> {
    const token = await issuer.sign({ patient: TOLVAN, scope: 'user/LabResult-read user/JournalNote-read' });
    const res = await on.app.inject({ method: 'GET', url: what, headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}`, patient: MARTA } });
    return res.statusCode;
  }

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-proxy-two-'));
    await generateDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone: ZONE });
    issuer = await TestIssuer.start();
    a = await instance();
    b = await instance();
  }, 30_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await issuer.close();
    const admin = adminPool();
    await dropSchema(admin, schema);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('a grant given on one instance and accepted on the other opens the proxy read on both; a revoke on either closes it on both', async () => {
    expect(await proxyRead(a)).toBe(403);
    const given = await share(a, MARTA, 'POST', '', { grantee: TOLVAN, categories: ['LabResult'] });
    expect(given.status).toBe(201);
    const id = (given.body as { id: string }).id;
    expect(await proxyRead(b)).toBe(403);
    const accepted = await share(b, TOLVAN, 'POST', `${id}/accept`);
    expect([accepted.status, accepted.body]).toMatchObject([200, { status: 'active', role: 'grantee' }]);
    expect(await proxyRead(b)).toBe(200);
    expect(await proxyRead(a)).toBe(200);
    expect(await proxyRead(a, '/patients/journalnotes/')).toBe(403);
    expect((await share(b, MARTA, 'DELETE', id)).status).toBe(200);
    expect(await proxyRead(a)).toBe(403);
    expect(await proxyRead(b)).toBe(403);
    const listed = (await share(a, MARTA, 'GET', '')).body as { id: string; status: string; endedBy?: string }[];
    expect(listed.map((g) => [g.id, g.status, g.endedBy])).toEqual([[id, 'revoked', 'grantor']]);
  });

  it('with PROXY_MAX_GRANTS 1, two grants at once through the two instances: one is kept, the other is 409', async () => {
    const results = await Promise.all([
      share(a, TOLVAN, 'POST', '', { grantee: MARTA, categories: ['*'] }),
      share(b, TOLVAN, 'POST', '', { grantee: ANTON, categories: ['LabResult'] }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const listed = (await share(b, TOLVAN, 'GET', '')).body as { status: string }[];
    expect(listed.filter((g) => g.status === 'pending')).toHaveLength(1);
  });
});
