import type { FastifyInstance } from 'fastify';
import { FhirEhr } from '../../src/adapters/ehr-fhir/adapter/fhir-ehr.js';
import type { FhirEhrEvent, FhirEhrOptions } from '../../src/adapters/ehr-fhir/adapter/options.js';
import { DEMO_FHIR_SETTINGS } from '../../src/dev/demo-data/fhir/bundle.js';
import type { FhirSim } from '../../src/dev/fhir-sim/fhir-sim.js';
import type { LackedSearch } from '../../src/dev/fhir-sim/capability-statement.js';
import { DEFAULT_PAYMENT_SYSTEM } from '../../src/start/fhir-settings.js';
import { createLogger } from '../../src/http/logging.js';
import { startDemoSim } from '../adapters/ehr-fhir/support/demo-sim.js';
import { startFhirProxy, type FhirProxy } from '../adapters/ehr-fhir/support/fhir-proxy.js';
import type { RawResource } from '../adapters/ehr-fhir/support/demo-bundle.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { buildRemoteApp, clientOf, ZONE, type AppClient } from './app-wiring.js';
import { TestIssuer } from './test-issuer.js';

export interface FhirTestApp extends AppClient {
  app: FastifyInstance;
  sim: FhirSim;
  /** Set with `proxied`. */
  proxy: FhirProxy | undefined;
  ehr: FhirEhr;
  events: FhirEhrEvent[];
  audit: MemoryAuditTrail;
  clock: FixedClock;
  logLines: string[];
  close(): Promise<void>;
}

export interface FhirTestAppOptions {
  now?: number;
  /** What the server holds; the FHIR examples' demo bundle unless given. */
  resources?: RawResource[];
  /** The adapter's settings over those of the demo (FHIR_ID_ROOT 1.2.752.99999.1.1, pages of 100, at most 20). */
  adapter?: Partial<FhirEhrOptions>;
  /** A proxy in front of the server (test/adapters/ehr-fhir/support/fhir-proxy.ts), through which the adapter talks to it. */
  proxied?: boolean;
  /** Search parameters the server lacks (its CapabilityStatement leaves them out and it refuses them). */
  lacking?: readonly LackedSearch[];
}

const FHIR_DEMO_SETTINGS = { ...DEMO_FHIR_SETTINGS, pageSize: 100, maxPages: 20, paymentIdSystem: DEFAULT_PAYMENT_SYSTEM } as const;

export interface FhirBackend {
  sim: FhirSim;
  proxy: FhirProxy | undefined;
  ehr: FhirEhr;
  events: FhirEhrEvent[];
  close(): Promise<void>;
}

/** FhirEhr over the shared transport, talking to the development FHIR server in this process (through the proxy with `proxied`). */
export async function startFhirBackend(clock: FixedClock, options: Omit<FhirTestAppOptions, 'now'> = {}): Promise<FhirBackend> {
  const sim = await startDemoSim(options.resources, options.lacking);
  const proxy = options.proxied ? await startFhirProxy(sim.baseUrl) : undefined;
  const events: FhirEhrEvent[] = [];
  const ehr = new FhirEhr({
    baseUrl: proxy?.url ?? sim.baseUrl, timeoutMs: 5000, zone: ZONE, ...FHIR_DEMO_SETTINGS,
    breaker: { failureThreshold: 1000, openMs: 10_000 }, now: () => clock.now(),
    onDropped: () => undefined, onEvent: (event) => events.push(event), ...options.adapter,
  });
  return {
    sim, proxy, ehr, events,
    close: async () => {
      await ehr.close();
      await proxy?.close();
      await sim.close();
    },
  };
}

/**
 * The real HTTP app as test-app.ts builds it, but over the FHIR adapter (`EHR_ADAPTER=fhir-r4`):
 * FhirEhr over the shared transport, talking to the development FHIR server (Medplum's router) in
 * this process on loopback.
 */
export async function startFhirTestApp(options: FhirTestAppOptions = {}): Promise<FhirTestApp> {
  const clock = new FixedClock(options.now ?? Date.now());
  const backend = await startFhirBackend(clock, options);
  const logLines: string[] = [];
  const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
  const issuer = await TestIssuer.start();
  const audit = new MemoryAuditTrail();
  const app = await buildRemoteApp(backend.ehr, clock, issuer, audit, logger);
  return {
    app, sim: backend.sim, proxy: backend.proxy, ehr: backend.ehr, events: backend.events, audit, clock, logLines,
    ...clientOf(app, issuer),
    close: async () => {
      await app.close();
      await backend.close();
      await issuer.close();
    },
  };
}
