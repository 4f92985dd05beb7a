/**
 * The synthetic FHIR data set of the contract (test/fixtures/fhir/demo-bundle.json, copied from the
 * upstream FHIR examples with the answers that follow from it in expected/), and mapper inputs made
 * from it: the matches a search would give, and every resource of the bundle at hand by reference,
 * as if the server had honoured every include.
 */
import { readFileSync } from 'node:fs';
import { parseFhirJson } from '../../../../src/adapters/ehr-fhir/fhir-json.js';
import type { MapContext } from '../../../../src/adapters/ehr-fhir/map-context.js';
import { patientFacts } from '../../../../src/adapters/ehr-fhir/patient-facts.js';
import type { ReadInput } from '../../../../src/adapters/ehr-fhir/read-input.js';
import { ResourceIndex } from '../../../../src/adapters/ehr-fhir/resource-index.js';
import { checkedResource, isResourceType, type MappedResource } from '../../../../src/adapters/ehr-fhir/schemas/index.js';
import { DEMO_FHIR_SETTINGS } from '../../../../src/dev/demo-data/fhir/bundle.js';

export const FHIR_FIXTURES = new URL('../../../fixtures/fhir/', import.meta.url);

export type RawResource = { resourceType: string; id: string } & Record<string, unknown>;

/** The bundle's resources, read as the adapter reads an answer (decimals as written). */
export function demoResources(): RawResource[] {
  const bundle = parseFhirJson(readFileSync(new URL('demo-bundle.json', FHIR_FIXTURES), 'utf8')) as { entry: { resource: RawResource }[] };
  return bundle.entry.map((e) => e.resource);
}

export function expectedAnswer(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`expected/${name}`, FHIR_FIXTURES), 'utf8'));
}

export const TOLVAN = '191212121212';
/** EHR_BASE_URL of the mapper tests: the server whose resources the demo's references name. */
export const FHIR_BASE = 'https://fhir.example/R4';
/** When the demo bundle's 2025 records fall within the reads' default window (the last year and more ahead). */
export const MID_2025 = Date.parse('2025-06-12T10:00:00Z');
/** The answers of expected/ were made before the temporary Norwegian address ended (2026-08-31). */
export const BEFORE_OSLO_ENDED = Date.parse('2026-06-12T12:00:00Z');

export function mapContext(notes: string[] = [], over: Partial<MapContext> = {}): MapContext {
  return {
    zone: 'Europe/Stockholm', idRoot: DEMO_FHIR_SETTINGS.idRoot, nowMs: BEFORE_OSLO_ENDED, videoActionIdSystem: DEMO_FHIR_SETTINGS.videoActionIdSystem,
    note: (reason) => notes.push(reason), ...over,
  };
}

const patientRef = (r: RawResource): string | undefined => {
  const ref = (r.subject ?? r.patient) as { reference?: string } | undefined;
  if (ref !== undefined) return ref.reference;
  const participants = (r.participant ?? []) as { actor?: { reference?: string } }[];
  return participants.find((p) => p.actor?.reference?.startsWith('Patient/'))?.actor?.reference;
};

/**
 * A mapper's input: the resources of `types` that name the patient `patientId` are the matches,
 * every resource of `resources` but those `without` is at hand.
 */
export function readInput(types: string[], options: { resources?: RawResource[]; number?: string; patientId?: string; without?: string[] } = {}): ReadInput {
  const resources = options.resources ?? demoResources();
  const patientId = options.patientId ?? 'pat-tolvan';
  const index = new ResourceIndex(FHIR_BASE);
  for (const r of resources) if (!(options.without ?? []).includes(`${r.resourceType}/${r.id}`)) index.add(r);
  const matches = resources.filter((r) => types.includes(r.resourceType) && patientRef(r) === `Patient/${patientId}`)
    .map((r) => (isResourceType(r.resourceType) ? checkedResource(r.resourceType, r) : r) as MappedResource);
  const patient = checkedResource('Patient', resources.find((r) => r.resourceType === 'Patient' && r.id === patientId));
  return { matches, index, patient: patientFacts(patient, options.number ?? TOLVAN) };
}

/** The demo resources with the one named `key` (`Type/id`) changed by `change` (on a copy). */
export function changed(key: string, change: (r: RawResource) => void, resources = demoResources()): RawResource[] {
  return resources.map((r) => {
    if (`${r.resourceType}/${r.id}` !== key) return r;
    const copy = structuredClone(r);
    change(copy);
    return copy;
  });
}
