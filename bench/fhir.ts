/**
 * The bench part of `EHR_ADAPTER=fhir-r4` (issue 24; `--only fhir`): the development FHIR server
 * (Medplum's router, src/dev/fhir-sim) in the bench process on core 1, serving the demo people of
 * today, with the demo patient Tolvan's prescriptions and journal notes multiplied out (each copy
 * its own id and identifier), so that
 *   - the medications read answers about as many bytes as the xml-http 20 KB read (a ~20 KB-equivalent
 *     read: the same operation, an answer of the same order), and
 *   - the journal read of a long journal takes many pages of FHIR_PAGE_SIZE (the paging cost),
 * beside a short journal of one page. Generated, never hand-written; the demo generator is untouched.
 */
import { demoClock } from '../src/dev/demo-data/clock.js';
import { DEMO_FHIR_SETTINGS, demoFhirResources, type FhirResource } from '../src/dev/demo-data/fhir/bundle.js';
import { startFhirSim, type FhirSim } from '../src/dev/fhir-sim/fhir-sim.js';
import { ZONE } from './fixtures.js';

/** Tolvan, the demo person whose record is multiplied out. */
export const FHIR_BENCH_PATIENT = '191212121212';
/** Another demo person, whose record is left as the demo has it (the short journal). */
export const FHIR_SHORT_PATIENT = '198112189876';
/** Copies of each of Tolvan's prescriptions, and of each of his journal notes. */
const MEDICATION_COPIES = 1;
const NOTE_COPIES = 15;
export const FHIR_PAGE_SIZE = 20;

/** The logical id of Tolvan's Patient, as the demo bundle names it (resources of his reference it). */
function tolvanMark(resources: FhirResource[]): string {
  const patient = resources.find((r) => r.resourceType === 'Patient' && JSON.stringify(r).includes(FHIR_BENCH_PATIENT));
  if (patient === undefined) throw new Error('no Patient for the bench patient in the demo bundle');
  return String(patient.id);
}

/** The demo resources with Tolvan's multiplied out, and how many Compositions his long journal then has. */
function fhirBenchResources(now: number): { resources: FhirResource[]; longJournalCompositions: number } {
  const demo = demoFhirResources(demoClock(now, ZONE));
  const tolvan = `Patient/${tolvanMark(demo)}`;
  const his = demo.filter((r) => JSON.stringify((r as { subject?: unknown }).subject ?? '').includes(tolvan));
  // Each copy its own logical id and identifier value, so the adapter maps it as another record.
  const copy = (type: string, times: number): FhirResource[] => his.filter((r) => r.resourceType === type).flatMap((r) => Array.from({ length: times }, (_, i) => {
    const c = structuredClone(r) as FhirResource & { identifier?: unknown };
    c.id = `${String(r.id)}-b${i}`;
    const identifiers = Array.isArray(c.identifier) ? c.identifier : c.identifier === undefined ? [] : [c.identifier];
    for (const id of identifiers as Array<{ value?: string }>) if (id.value !== undefined) id.value = `${id.value}9${String(i).padStart(3, '0')}`;
    return c;
  }));
  const notes = copy('Composition', NOTE_COPIES);
  return {
    resources: [...demo, ...copy('MedicationRequest', MEDICATION_COPIES), ...notes],
    longJournalCompositions: his.filter((r) => r.resourceType === 'Composition').length + notes.length,
  };
}

/** The server and the settings the service needs to read it (FHIR_* of docs/upstream-fhir.md#settings). */
export async function startFhirBench(now: number): Promise<{ sim: FhirSim; env: Record<string, string>; resources: number; longJournalCompositions: number }> {
  const { resources, longJournalCompositions } = fhirBenchResources(now);
  const sim = await startFhirSim({ port: 0, resources });
  return {
    sim, resources: resources.length, longJournalCompositions,
    env: {
      // A long journal is many searches in turn; the default 5 s deadline would cut the measured read short.
      EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: sim.baseUrl, EHR_TIMEOUT_MS: '15000', FHIR_ID_ROOT: DEMO_FHIR_SETTINGS.idRoot,
      FHIR_VIDEO_ACTION_ID_SYSTEM: DEMO_FHIR_SETTINGS.videoActionIdSystem, FHIR_PAGE_SIZE: String(FHIR_PAGE_SIZE),
      FHIR_DELEGATION_TAG: `${DEMO_FHIR_SETTINGS.delegationTag.system}|${DEMO_FHIR_SETTINGS.delegationTag.code}`,
    },
  };
}

/** One read, checked for status before anything is measured: its answer's bytes and records (array items). */
export async function fhirAnswer(origin: string, urlPath: string, headers: Record<string, string>): Promise<{ bytes: number; records: number }> {
  const res = await fetch(origin + urlPath, { headers });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`fhir-r4 ${urlPath}: status ${res.status}: ${body.slice(0, 300)}`);
  const records = (JSON.parse(body) as Array<Record<string, unknown[]>>).reduce((n, r) => n + Object.values(r).filter(Array.isArray).reduce((m, a) => m + a.length, 0), 0);
  return { bytes: Buffer.byteLength(body), records };
}
