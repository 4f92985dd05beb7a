import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { copyDemoData } from './demo-data-sets.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { StaticSubscriptionKeys } from '../../src/adapters/subscription-keys/static-subscription-keys.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/http/logging.js';
import { PostgresAuditTrail } from '../../src/adapters/audit-postgres/postgres-audit-trail.js';
import type { AuditTrail } from '../../src/ports/audit-trail.port.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { ALL_SCOPES, KEY, ZONE } from './test-app.js';
import { databaseUrl, urlVia } from './database.js';
import { TcpProxy } from './tcp-proxy.js';
import { TestIssuer } from './test-issuer.js';
import type { AccessLogReader } from '../../src/ports/access-log.port.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { accessLogOver, TEST_HTTP_CONFIG, useCasesOver, verifierFor } from './app-wiring.js';

export interface AuditedTestApp {
  app: FastifyInstance;
  clock: FixedClock;
  logLines: string[];
  personToken(personId: string): Promise<string>;
  call(options: InjectOptions & { token: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The real HTTP app over the embedded EHR (generated demo data) and a loopback test issuer, like
 * `startTestApp`, but writing to the audit trail it is given (a PostgresAuditTrail in outage tests).
 * Closing the app does not close the trail; the test owns it.
 */
export async function startAuditedTestApp(auditTrail: AuditTrail, accessLog: AccessLogReader = new MemoryAuditTrail()): Promise<AuditedTestApp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-pg-test-'));
  const clock = new FixedClock(Date.now());
  await copyDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone: ZONE });
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const issuer = await TestIssuer.start();
  const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state.json')), ZONE, () => undefined);
  const app = await buildApp({
    config: TEST_HTTP_CONFIG,
    clock, logger, ehr, auditTrail, tokenVerifier: verifierFor(issuer, clock), ...useCasesOver(ehr, clock), readAccessLog: accessLogOver(accessLog, clock),
    subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY]])),
  });
  await app.ready();
  return {
    app, clock, logLines,
    personToken: (personId) => issuer.sign({ scope: ALL_SCOPES, patient: personId, sub: `person-${personId.slice(-4)}` }),
    call: ({ token, headers, ...rest }) => app.inject({
      ...rest, headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${token}`, ...headers },
    }),
    close: async () => {
      await app.close();
      await issuer.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface ProxiedAuditApp {
  t: AuditedTestApp;
  /** Between the trail and PostgreSQL: cut it to kill the audit store, restore it to bring it back. */
  proxy: TcpProxy;
  trail: PostgresAuditTrail;
  /** Waits (at most 5 s) until /health/ready answers 200. */
  untilReady(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `startAuditedTestApp` over a PostgresAuditTrail in `schema` that reaches PostgreSQL through a
 * TcpProxy, with short bounds so a killed store is noticed quickly. `cut` starts it down.
 */
export async function startProxiedAuditApp(schema: string, cut?: 'refuse' | 'blackhole'): Promise<ProxiedAuditApp> {
  const { hostname, port } = new URL(databaseUrl());
  const proxy = await TcpProxy.start(hostname, Number(port || 5432));
  if (cut) proxy.cut(cut);
  const trail = PostgresAuditTrail.create({
    connectionString: urlVia(proxy.port), schema, connectTimeoutMs: 500, appendTimeoutMs: 1000, onWarning: () => undefined,
  });
  const t = await startAuditedTestApp(trail);
  return {
    t, proxy, trail,
    untilReady: async () => {
      const started = performance.now();
      while ((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode !== 200) {
        if (performance.now() - started > 5000) throw new Error('not ready 5 s after PostgreSQL returned');
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: async () => {
      await t.close();
      await trail.close();
      await proxy.close();
    },
  };
}
