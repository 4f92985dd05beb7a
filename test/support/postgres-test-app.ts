import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { generateDemoData } from '../../src/adapters/ehr-embedded/demo-data/generate.js';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { StaticSubscriptionKeys } from '../../src/adapters/subscription-keys/static-subscription-keys.js';
import { buildApp } from '../../src/http/app.js';
import { createLogger } from '../../src/http/logging.js';
import type { AuditTrail } from '../../src/ports/audit-trail.port.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { ALL_SCOPES, KEY, ZONE } from './test-app.js';
import { TestIssuer } from './test-issuer.js';
import { TEST_HTTP_CONFIG, useCasesOver, verifierFor } from './app-wiring.js';

export interface AuditedTestApp {
  app: FastifyInstance;
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
export async function startAuditedTestApp(auditTrail: AuditTrail): Promise<AuditedTestApp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-pg-test-'));
  const clock = new FixedClock(Date.now());
  await generateDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone: ZONE });
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const issuer = await TestIssuer.start();
  const ehr = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), await WriteStateStore.open(path.join(dir, 'state.json')), ZONE, () => undefined);
  const app = await buildApp({
    config: TEST_HTTP_CONFIG,
    clock, logger, ehr, auditTrail, tokenVerifier: verifierFor(issuer, clock), ...useCasesOver(ehr, clock),
    subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY]])),
  });
  await app.ready();
  return {
    app, logLines,
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
