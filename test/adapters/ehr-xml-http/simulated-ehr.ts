import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { XmlHttpEhr, type XmlHttpEhrEvent, type XmlHttpEhrOptions } from '../../../src/adapters/ehr-xml-http/index.js';

export const ZONE = 'Europe/Stockholm';
export const NOW = Date.UTC(2026, 10, 21, 8, 0);
export const ADULT = '191212121212';
export const ACTOR = '198112189876';
export const UNKNOWN = '195507142478';

export interface SimulatedEhr {
  dir: string;
  dataDir: string;
  sim: EhrSimulator;
  /** Every event of every adapter made here. */
  events: XmlHttpEhrEvent[];
  /** Reasons given to onDropped. */
  dropped: string[];
  /** A remote adapter on the simulator; closed with the rest. */
  adapter(overrides?: Partial<XmlHttpEhrOptions>): XmlHttpEhr;
  close(): Promise<void>;
}

/** The simulator over freshly generated demo data, and adapters on it that never open the breaker unless asked to. */
export async function startSimulatedEhr(): Promise<SimulatedEhr> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ehr-sim-test-'));
  const dataDir = path.join(dir, 'ehr');
  await generateDemoData(dataDir, { now: NOW, zone: ZONE });
  const sim = await startEhrSimulator({ dataDir, stateFile: path.join(dir, 'state.json'), zone: ZONE });
  const events: XmlHttpEhrEvent[] = [];
  const dropped: string[] = [];
  const adapters: XmlHttpEhr[] = [];
  return {
    dir, dataDir, sim, events, dropped,
    adapter: (overrides = {}) => {
      // A deadline no request of a loaded CI machine reaches; a test of deadlines passes its own.
      const ehr = new XmlHttpEhr({
        baseUrl: sim.url, timeoutMs: 5000, zone: ZONE, breaker: { failureThreshold: 1000, openMs: 10_000 },
        onDropped: (reason) => dropped.push(reason), onEvent: (event) => events.push(event), ...overrides,
      });
      adapters.push(ehr);
      return ehr;
    },
    close: async () => {
      await sim.close();
      await Promise.all(adapters.map((a) => a.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The outcome of `run` and how long it took. */
export async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = performance.now();
  try {
    const value = await run();
    return { ms: performance.now() - start, value };
  } catch (error) {
    return { ms: performance.now() - start, error };
  }
}
