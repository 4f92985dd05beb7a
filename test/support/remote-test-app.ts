import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { copyDemoData } from './demo-data-sets.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { XmlHttpEhr, type XmlHttpEhrEvent } from '../../src/adapters/ehr-xml-http/index.js';
import { createLogger } from '../../src/http/logging.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { ZONE } from './test-app.js';
import { TestIssuer } from './test-issuer.js';
import { buildRemoteApp, clientOf } from './app-wiring.js';

export interface RemoteTestApp {
  app: FastifyInstance;
  sim: EhrSimulator;
  ehr: XmlHttpEhr;
  events: XmlHttpEhrEvent[];
  audit: MemoryAuditTrail;
  clock: FixedClock;
  logLines: string[];
  personToken(personId: string, claims?: Record<string, unknown>): Promise<string>;
  clientToken(claims?: Record<string, unknown>): Promise<string>;
  call(options: InjectOptions & { token?: string; key?: string | null; patient?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface RemoteTestAppOptions {
  now?: number;
  timeoutMs?: number;
  maxBodyBytes?: number;
  breaker?: { failureThreshold: number; openMs: number };
  /** The breaker's clock; the app's FixedClock unless given. */
  breakerNow?: () => number;
  /** Sees every request the EHR simulator receives, as it arrives. */
  onEhrRequest?: (req: IncomingMessage) => void;
}

/**
 * The real HTTP app as test-app.ts builds it, but over the remote adapter (`EHR_ADAPTER=xml-http`):
 * XmlHttpEhr talking to the EHR simulator on loopback, over freshly generated demo data.
 */
export async function startRemoteTestApp(options: RemoteTestAppOptions = {}): Promise<RemoteTestApp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-remote-test-'));
  const clock = new FixedClock(options.now ?? Date.now());
  await copyDemoData(path.join(dir, 'ehr'), { now: clock.now(), zone: ZONE });
  const sim = await startEhrSimulator({
    dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: ZONE,
    ...(options.onEhrRequest === undefined ? {} : { onRequest: options.onEhrRequest }),
  });
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const issuer = await TestIssuer.start();
  const audit = new MemoryAuditTrail();
  const events: XmlHttpEhrEvent[] = [];
  const ehr = new XmlHttpEhr({
    baseUrl: sim.url, timeoutMs: options.timeoutMs ?? 5000, zone: ZONE,
    breaker: options.breaker ?? { failureThreshold: 1000, openMs: 10_000 },
    onDropped: () => undefined, onEvent: (event) => events.push(event), now: options.breakerNow ?? (() => clock.now()),
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
  });
  const app = await buildRemoteApp(ehr, clock, issuer, audit, logger);
  return {
    app, sim, ehr, events, audit, clock, logLines,
    ...clientOf(app, issuer),
    close: async () => {
      await app.close();
      await sim.close();
      await ehr.close();
      await issuer.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
