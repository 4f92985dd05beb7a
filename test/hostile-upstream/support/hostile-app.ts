/**
 * The service exactly as `npm start` composes it (src/start/config.ts + src/start/container.ts) with
 * `EHR_ADAPTER=xml-http`, listening on loopback, in front of the EHR simulator reached through a
 * hostile front proxy; a loopback test issuer; the embedded audit file. Callers talk real HTTP.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { copyDemoData } from '../../support/demo-data-sets.js';
import { startEhrSimulator, type EhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { loadConfig } from '../../../src/start/config.js';
import { compose, type Runtime } from '../../../src/start/container.js';
import { createLogger } from '../../../src/http/logging.js';
import { ALL_SCOPES, KEY, ZONE } from '../../support/test-app.js';
import { TestIssuer } from '../../support/test-issuer.js';
import { HostileFront } from './hostile-front.js';
import { CHAIN_KEY_ENV } from '../../support/chain-key.js';

export const ADULT = '191212121212';
/** EHR_TIMEOUT_MS of these tests: low, so a deadline case costs little time. */
export const EHR_TIMEOUT_MS = 1500;

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** From sending the request to the end of the answer's body. */
  ms: number;
  requestId: string;
}

export interface HostileApp {
  sim: EhrSimulator;
  front: HostileFront;
  runtime: Runtime;
  /** Base URL of the listening API. */
  api: string;
  logLines: string[];
  /** A person token for ADULT with every scope. */
  token: string;
  /** GET `url` as ADULT (own data), with a fresh X-Request-Id. */
  get(url: string): Promise<Answer>;
  /** GET `url` as the person `patient` (own data), with a fresh X-Request-Id. */
  getAs(patient: string, url: string): Promise<Answer>;
  /** The audit records (parsed lines of the embedded audit file) with this request id. */
  auditRecords(requestId: string): Promise<Array<Record<string, unknown>>>;
  /** The document the simulator serves for ADULT, unfiltered. */
  document(kind: 'journalnotes' | 'contacts'): Promise<string>;
  close(): Promise<void>;
}

export interface HostileAppOptions {
  /** Wait for a normal request to be served before returning (default true). */
  warmUp?: boolean;
  /** EHR_TIMEOUT_MS (default EHR_TIMEOUT_MS above): longer where a test's documents, not its deadline, are under test. */
  ehrTimeoutMs?: number;
}

export async function startHostileApp(options: HostileAppOptions = {}): Promise<HostileApp> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pdas-hostile-'));
  const closers: Array<() => Promise<void>> = [async () => rm(dir, { recursive: true, force: true })];
  const close = async (): Promise<void> => {
    for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  };
  try {
    await copyDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: ZONE });
    const sim = await startEhrSimulator({ dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: ZONE });
    closers.push(() => sim.close());
    const front = await HostileFront.start(sim.url);
    closers.push(() => front.close());
    const issuer = await TestIssuer.start();
    closers.push(() => issuer.close());

    const dataDir = path.join(dir, 'data');
    const config = loadConfig({
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info',
      EHR_ADAPTER: 'xml-http', EHR_BASE_URL: front.url, EHR_TIMEOUT_MS: String(options.ehrTimeoutMs ?? EHR_TIMEOUT_MS), EHR_TIMEZONE: ZONE,
      AUTH_ISSUER: issuer.issuer, SUBSCRIPTION_KEYS: `test:${KEY}`, ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none', RATE_LIMIT_MAX: '1000000',
      // Load shedding answers 503 whenever this process's event loop lags a second, which a CPU shared
      // with other suites (and the EHR simulator and the client in this same process) can cause. The
      // hostile cases are about the EHR's answers, so shedding is set out of their way.
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '60000',
    });
    const logLines: string[] = [];
    const runtime = await compose(config, createLogger('info', { write: (line: string) => void logLines.push(line) }));
    closers.push(() => runtime.close());
    const api = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    const client = new Agent({ connections: 32, headersTimeout: 30_000, bodyTimeout: 30_000 });
    closers.push(() => client.close());
    const token = await issuer.sign({ scope: ALL_SCOPES, patient: ADULT, sub: 'person-hostile' });

    const tokens = new Map<string, string>([[ADULT, token]]);
    const getAs = async (patient: string, url: string): Promise<Answer> => {
      let bearer = tokens.get(patient);
      if (bearer === undefined) {
        bearer = await issuer.sign({ scope: ALL_SCOPES, patient, sub: `person-hostile-${patient}` });
        tokens.set(patient, bearer);
      }
      const requestId = `hostile-${randomUUID()}`;
      const started = performance.now();
      const res = await request(`${api}${url}`, {
        dispatcher: client,
        headers: { 'ocp-apim-subscription-key': KEY, authorization: `Bearer ${bearer}`, 'x-request-id': requestId },
        // Bounded whatever the service does: a hang fails the test instead of stalling it.
        signal: AbortSignal.timeout(15_000),
      });
      const body = await res.body.text();
      // The id the service gave the request: its own, always (issue 34 item 10); the caller's is only kept beside it.
      const echoed = res.headers['x-request-id'];
      return { status: res.statusCode, headers: res.headers, body, ms: performance.now() - started, requestId: typeof echoed === 'string' ? echoed : requestId };
    };
    const get = (url: string): Promise<Answer> => getAs(ADULT, url);
    // The hostile cases start once a normal request is served.
    for (let attempt = 1; options.warmUp ?? true; attempt++) {
      const warm = await get('/patients/journalnotes/');
      if (warm.status === 200) break;
      if (attempt >= 50) throw new Error(`the app never served a normal request: ${warm.status} ${warm.body.slice(0, 200)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const auditFile = path.join(dataDir, 'audit', 'audit-trail.jsonl');
    return {
      sim, front, runtime, api, logLines, token, get, getAs,
      auditRecords: async (requestId) => (await readFile(auditFile, 'utf8')).split('\n').filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((r) => r.requestId === requestId),
      document: async (kind) => {
        const res = await request(`${sim.url}/ehr/v1/patients/${ADULT}/${kind}`, { signal: AbortSignal.timeout(5000) });
        if (res.statusCode !== 200) throw new Error(`simulator answered ${res.statusCode} for ${kind}`);
        return res.body.text();
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
