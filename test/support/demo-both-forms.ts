/**
 * The demo people of one moment in both forms, in this process: the development FHIR server serving
 * their FHIR resources, and the embedded EHR reading their XML documents (generated into a
 * temporary folder that `close` removes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DocumentStore } from '../../src/adapters/ehr-embedded/document-store.js';
import { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { WriteStateStore } from '../../src/adapters/ehr-embedded/write-state-store.js';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { demoFhirResources } from '../../src/dev/demo-data/fhir/bundle.js';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { afterAll, beforeAll } from 'vitest';
import { startFhirSim, type FhirSim } from '../../src/dev/fhir-sim/fhir-sim.js';

export interface DemoBothForms {
  sim: FhirSim;
  embedded: EmbeddedEhr;
  close(): Promise<void>;
}

export async function startDemoBothForms(now: number, zone: string): Promise<DemoBothForms> {
  const sim = await startFhirSim({ port: 0, resources: demoFhirResources(demoClock(now, zone)) });
  const dir = await mkdtemp(path.join(tmpdir(), 'demo-both-forms-'));
  await generateDemoData(path.join(dir, 'ehr'), { now, zone });
  const writes = await WriteStateStore.open(path.join(dir, 'writes.json'));
  const embedded = new EmbeddedEhr(new DocumentStore(path.join(dir, 'ehr')), writes, zone, () => {});
  return {
    sim, embedded,
    close: async () => {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Both forms for the tests of one file: started before them, closed after; read the fields inside a test. */
export function demoBothFormsForTests(now: number, zone: string): { sim: FhirSim; embedded: EmbeddedEhr } {
  const holder = {} as DemoBothForms;
  beforeAll(async () => {
    Object.assign(holder, await startDemoBothForms(now, zone));
  });
  afterAll(() => holder.close());
  return holder;
}
