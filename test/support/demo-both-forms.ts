/**
 * The demo people of one moment in both forms, in this process: the development FHIR server serving
 * their FHIR resources, and the embedded EHR reading their XML documents (generated into a
 * temporary folder that `close` removes).
 */
import type { EmbeddedEhr } from '../../src/adapters/ehr-embedded/embedded-ehr.js';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { demoFhirResources } from '../../src/dev/demo-data/fhir/bundle.js';
import { afterAll, beforeAll } from 'vitest';
import { startFhirSim, type FhirSim } from '../../src/dev/fhir-sim/fhir-sim.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { embeddedBackend } from './test-app.js';

export interface DemoBothForms {
  sim: FhirSim;
  embedded: EmbeddedEhr;
  close(): Promise<void>;
}

async function startDemoBothForms(now: number, zone: string): Promise<DemoBothForms> {
  const sim = await startFhirSim({ port: 0, resources: demoFhirResources(demoClock(now, zone)) });
  const backend = await embeddedBackend(new FixedClock(now), zone);
  return {
    sim, embedded: backend.ehr,
    close: async () => {
      await sim.close();
      await backend.close();
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
