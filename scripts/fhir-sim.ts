/**
 * `npm run fhir-sim [-- bundle.json ...]`: the development FHIR R4 server on
 * http://127.0.0.1:8091/fhir (FHIR_SIM_PORT), Medplum's router over its in-memory repository
 * (src/dev/fhir-sim). By default it serves the demo people of the embedded EHR as FHIR resources,
 * generated for now (src/dev/demo-data/fhir, zone EHR_TIMEZONE), so the service with
 * EHR_ADAPTER=fhir-r4 answers the README's session as the embedded EHR does. Given Bundle files
 * (e.g. the contract's test/fixtures/fhir/demo-bundle.json), it serves their resources instead.
 * Changes are kept in memory only.
 */
import { readFileSync } from 'node:fs';
import { demoClock } from '../src/dev/demo-data/clock.js';
import { DEMO_FHIR_SETTINGS, demoFhirResources } from '../src/dev/demo-data/fhir/bundle.js';
import { startFhirSim, type SeedResource } from '../src/dev/fhir-sim/fhir-sim.js';
import { assertTimeZone } from '../src/domain/time/local-time.js';
import { createLogger } from '../src/http/logging.js';

/** The resources of a Bundle file (its entries'), or the one resource a file holds. */
function resourcesIn(file: string): SeedResource[] {
  const json = JSON.parse(readFileSync(file, 'utf8')) as SeedResource & { entry?: { resource?: SeedResource }[] };
  if (json.resourceType !== 'Bundle') return [json];
  return (json.entry ?? []).flatMap((e) => (e.resource === undefined ? [] : [e.resource]));
}

async function main(): Promise<void> {
  const logger = createLogger(process.env.LOG_LEVEL ?? 'info');
  const port = Number(process.env.FHIR_SIM_PORT?.trim() || '8091');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('FHIR_SIM_PORT must be a port number');
  const zone = process.env.EHR_TIMEZONE || 'Europe/Stockholm';
  assertTimeZone(zone);
  const files = process.argv.slice(2);
  const resources = files.length > 0 ? files.flatMap(resourcesIn) : demoFhirResources(demoClock(Date.now(), zone));
  const sim = await startFhirSim({ port, resources });
  logger.warn({
    baseUrl: sim.baseUrl, resources: resources.length, data: files.length > 0 ? 'the Bundle files given' : 'the demo people, generated for now',
    settings: files.length > 0 ? undefined : {
      FHIR_ID_ROOT: DEMO_FHIR_SETTINGS.idRoot, FHIR_VIDEO_ACTION_ID_SYSTEM: DEMO_FHIR_SETTINGS.videoActionIdSystem,
    },
  }, 'DEMO ONLY: FHIR development server (Medplum in memory, no authentication, synthetic data); point the service at it with EHR_BASE_URL');
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
