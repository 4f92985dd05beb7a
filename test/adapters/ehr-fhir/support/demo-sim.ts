/** The development FHIR server (Medplum in memory, src/dev/fhir-sim) in the test process, serving the demo bundle or what a test gives it. */
import type { LackedSearch } from '../../../../src/dev/fhir-sim/capability-statement.js';
import { startFhirSim, type FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { demoResources, type RawResource } from './demo-bundle.js';

export const startDemoSim = (resources: RawResource[] = demoResources(), lacking: readonly LackedSearch[] = []): Promise<FhirSim> =>
  startFhirSim({ port: 0, resources, lacking });
