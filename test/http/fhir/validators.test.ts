/**
 * Every resource the FHIR API answers, for every demo person and every type it serves (every page,
 * with every include and revinclude its CapabilityStatement declares), is valid R4 for three
 * validators: its structure for @medplum/core's `validateResource`, its required value-set bindings
 * for the `fhir` package (`Fhir.validate`) and for test/support/required-bindings.ts (each catches
 * faults the others let through: the first test shows which). The Bundles, the CapabilityStatement
 * and OperationOutcomes are checked too. Over both EHR back-ends: the forms must hold for records
 * read from the legacy EHR and from a FHIR server alike.
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';
import { structureProblems } from '../../support/as-fhir-round-trip.js';
import { requiredBindingFaults } from '../../support/required-bindings.js';
import { EHR_VARIANTS, startTestAppOn, TEST_PUBLIC_BASE_URL, type AnyTestApp } from '../../support/test-app.js';
import { get, NOW, smartToken, TOLVAN } from './fhir-calls.js';

interface Statement { rest: { resource: { type: string; searchInclude?: string[]; searchRevInclude?: string[] }[] }[] }
type Page = FhirResource & { total?: number; entry?: { resource: FhirResource }[]; link: { relation: string; url: string }[] };

const fhirPackage = new Fhir();
/** The `fhir` package's errors, as `Type/id: location message`. */
const fhirPackageProblems = (resources: readonly FhirResource[]): string[] => resources.flatMap((r) =>
  fhirPackage.validate(r).messages.filter((m) => m.severity === 'error').map((m) => `${r.resourceType}/${r.id}: ${m.location ?? ''} ${m.message ?? ''}`));

/** What all three validators find wrong with `resources`; `checked`: how many codes the bindings helper judged. */
function problems(resources: readonly FhirResource[]): { structure: string[]; fhirPackage: string[]; bindings: string[]; checked: number } {
  const { faults, checked } = requiredBindingFaults(resources);
  return { structure: structureProblems(resources), fhirPackage: fhirPackageProblems(resources), bindings: faults, checked };
}

/** A page of a small size: the answers are followed through `next` links, so paging is validated too. */
const PAGE = 5;

describe('the three validators', () => {
  it('each reports the fault it is here for (so an empty list below is a pass, not a blind validator)', () => {
    const badStatus = { resourceType: 'Observation', id: 'bad-status', status: 'bogus', code: { text: 'x' } } as unknown as FhirResource;
    const noCode = { resourceType: 'Observation', id: 'no-code', status: 'final' } as unknown as FhirResource;
    expect(problems([badStatus, noCode])).toEqual({
      // Medplum checks structure, not a code's value set; the other two check codes, not cardinality.
      structure: ['Observation/no-code: Missing required property (Observation.code)'],
      fhirPackage: ['Observation/bad-status: Observation.status Code "bogus" not found in value set', 'Observation/no-code: Observation.code Missing property'],
      bindings: ['Observation/bad-status Observation.status |bogus'],
      checked: 2,
    });
  });
});

describe.each(EHR_VARIANTS)('the FHIR API\'s answers are valid R4, over the %s EHR', (variant) => {
  let t: AnyTestApp;
  beforeAll(async () => {
    t = await startTestAppOn(variant, { now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  it('every resource of every type, for every demo person, on every page, with every declared include; and the Bundles', async () => {
    const metadataRes = await get(t, '/fhir/metadata');
    expect(metadataRes.statusCode).toBe(200);
    const metadata = JSON.parse(metadataRes.body) as Statement & FhirResource;
    const types = metadata.rest[0]?.resource ?? [];
    expect(types.length).toBeGreaterThan(8);
    const seen = new Map<string, FhirResource>();
    const bundles: FhirResource[] = [];
    let pages = 0;
    for (const person of DEMO_PEOPLE) {
      const token = await smartToken(t, person.id, 'patient/*.read');
      for (const type of types) {
        const includes = [...(type.searchInclude ?? []).map((i) => `_include=${i}`), ...(type.searchRevInclude ?? []).map((i) => `_revinclude=${i}`)];
        let url: string | undefined = `/fhir/${type.type}?_count=${PAGE}${includes.map((i) => `&${i}`).join('')}`;
        let matches = 0;
        let total: number | undefined;
        while (url !== undefined) {
          const res = await get(t, url, token);
          expect([person.id, type.type, res.statusCode], res.body.slice(0, 200)).toEqual([person.id, type.type, 200]);
          const bundle = JSON.parse(res.body) as Page;
          pages++;
          total ??= bundle.total;
          // Each Bundle is validated without its entries: those are validated one by one below, once.
          bundles.push({ ...bundle, entry: [] } as unknown as FhirResource);
          for (const e of bundle.entry ?? []) {
            seen.set(`${person.id} ${e.resource.resourceType}/${e.resource.id}`, e.resource);
            if (e.resource.resourceType === type.type) matches++;
          }
          const next = bundle.link.find((l) => l.relation === 'next')?.url;
          url = next?.slice(TEST_PUBLIC_BASE_URL.length);
        }
        // Every page was followed: as many matches as the total (includes of the searched type aside).
        if (total !== undefined) expect([person.id, type.type, matches >= total]).toEqual([person.id, type.type, true]);
      }
    }
    const resources = [...seen.values()];
    // Not a proof over nothing: every type the reads serve, the parties, and more than one page each at times.
    expect([...new Set(resources.map((r) => r.resourceType))].sort()).toEqual(expect.arrayContaining(['Appointment', 'Composition', 'Condition',
      'DiagnosticReport', 'Encounter', 'MedicationRequest', 'Observation', 'Organization', 'Patient', 'Practitioner']));
    expect(resources.length).toBeGreaterThan(100);
    expect(pages).toBeGreaterThan(DEMO_PEOPLE.length * types.length);
    const found = problems(resources);
    expect({ ...found, checked: undefined }).toEqual({ structure: [], fhirPackage: [], bindings: [], checked: undefined });
    expect(found.checked).toBeGreaterThan(resources.length);
    expect(problems([metadata, ...bundles])).toEqual(expect.objectContaining({ structure: [], fhirPackage: [], bindings: [] }));
  }, 300_000);

  it('the OperationOutcomes of a refusal, a bad search and an unknown resource', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/*.read');
    const answers = [await get(t, '/fhir/Observation'), await get(t, '/fhir/Observation?_count=many', token), await get(t, '/fhir/Observation/no-such-id', token)];
    expect(answers.map((a) => a.statusCode)).toEqual([401, 400, 404]);
    const outcomes = answers.map((a) => JSON.parse(a.body) as FhirResource);
    expect(outcomes.map((o) => o.resourceType)).toEqual(['OperationOutcome', 'OperationOutcome', 'OperationOutcome']);
    expect(problems(outcomes)).toEqual(expect.objectContaining({ structure: [], fhirPackage: [], bindings: [] }));
  });
});
