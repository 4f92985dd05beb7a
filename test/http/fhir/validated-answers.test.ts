/**
 * Every resource the FHIR API answers, for every demo person and every type it serves (with the
 * includes its CapabilityStatement declares), is valid R4 for two validators: its structure for
 * @medplum/core's `validateResource`, and its required value-set bindings for the `fhir` package
 * (which checks codes Medplum does not). The Bundles, the CapabilityStatement and an
 * OperationOutcome are checked too. Over both EHR back-ends: the forms must hold for records read
 * from the legacy EHR and from a FHIR server alike.
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';
import { structureProblems } from '../../support/as-fhir-round-trip.js';
import { EHR_VARIANTS, startTestAppOn, TEST_PUBLIC_BASE_URL, type AnyTestApp } from '../../support/test-app.js';
import { get, NOW, smartToken } from './fhir-calls.js';

interface Statement { rest: { resource: { type: string; searchInclude?: string[]; searchRevInclude?: string[] }[] }[] }

const fhirPackage = new Fhir();
/** The `fhir` package's errors for one resource, as `Type/id: location message`. */
const bindingProblems = (resources: readonly FhirResource[]): string[] => resources.flatMap((r) =>
  fhirPackage.validate(r).messages.filter((m) => m.severity === 'error').map((m) => `${r.resourceType}/${r.id}: ${m.location ?? ''} ${m.message ?? ''}`));

describe.each(EHR_VARIANTS)('the FHIR API\'s answers are valid R4, over the %s EHR', (variant) => {
  let t: AnyTestApp;
  beforeAll(async () => {
    t = await startTestAppOn(variant, { now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('every resource of every type, for every demo person, with the declared includes; and the Bundles', async () => {
    const metadata = JSON.parse((await get(t, '/fhir/metadata')).body) as Statement & FhirResource;
    const types = metadata.rest[0]?.resource ?? [];
    const seen = new Map<string, FhirResource>();
    const bundles: FhirResource[] = [metadata];
    for (const person of DEMO_PEOPLE) {
      const token = await smartToken(t, person.id, 'patient/*.read');
      for (const type of types) {
        const includes = [...(type.searchInclude ?? []).map((i) => `_include=${i}`), ...(type.searchRevInclude ?? []).slice(0, 3).map((i) => `_revinclude=${i}`)];
        let url: string | undefined = `/fhir/${type.type}?_count=500${includes.length === 0 ? '' : `&${includes.join('&')}`}`;
        while (url !== undefined) {
          const res = await get(t, url, token);
          expect([person.id, type.type, res.statusCode], res.body.slice(0, 200)).toEqual([person.id, type.type, 200]);
          const bundle = JSON.parse(res.body) as FhirResource & { entry?: { resource: FhirResource }[]; link: { relation: string; url: string }[] };
          bundles.push({ ...bundle, entry: [] } as unknown as FhirResource);
          for (const e of bundle.entry ?? []) seen.set(`${person.id} ${e.resource.resourceType}/${e.resource.id}`, e.resource);
          const next = bundle.link.find((l) => l.relation === 'next')?.url;
          url = next?.slice(TEST_PUBLIC_BASE_URL.length);
        }
      }
    }
    const resources = [...seen.values()];
    const kinds = new Set(resources.map((r) => r.resourceType));
    // Not a proof over nothing: every type the reads serve, and parties, were seen.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['Appointment', 'Composition', 'Condition', 'DiagnosticReport', 'Encounter', 'MedicationRequest', 'Observation', 'Organization', 'Patient', 'Practitioner']));
    expect(resources.length).toBeGreaterThan(100);
    expect(structureProblems(resources)).toEqual([]);
    expect(bindingProblems(resources)).toEqual([]);
    const outcome = JSON.parse((await get(t, '/fhir/Observation')).body) as FhirResource;
    expect(structureProblems([...bundles, outcome])).toEqual([]);
    expect(bindingProblems([...bundles, outcome])).toEqual([]);
  }, 180_000);
});
