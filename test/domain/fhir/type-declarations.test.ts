/**
 * Issue 57 item 1: a resource type's declaration holds all the shared tables need of it, and the
 * compiler names what a new one lacks: its R4 shared search definitions (`shared`) and its section of
 * the patient summary (`summary`, null for none). The `@ts-expect-error`s fail the typecheck the day
 * either becomes optional; the assertions, the day the summary's sections stop being gathered from them.
 */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { IPS_SECTIONS } from '../../../src/domain/fhir/ips-sections.js';
import type { ResourceTypeDeclarations } from '../../../src/domain/fhir/resources/resource-type.js';
import { RESOURCE_TYPES } from '../../../src/domain/fhir/resource-types.js';

const schema = Type.Object({ resourceType: Type.Literal('CarePlan') });

describe('a resource type declaration', () => {
  it('without its summary section or its shared search definitions does not compile', () => {
    // @ts-expect-error: `summary` is missing.
    const noSummary: ResourceTypeDeclarations = { CarePlan: { schema, search: { shared: {} } } };
    // @ts-expect-error: `shared` is missing.
    const noShared: ResourceTypeDeclarations = { CarePlan: { schema, summary: null, search: {} } };
    expect([noSummary, noShared]).toHaveLength(2);
  });

  it('gives the summary its sections: every type that declares one, in its position', () => {
    const declared = Object.entries(RESOURCE_TYPES).filter(([, d]) => d.summary !== null).map(([type]) => type);
    expect(IPS_SECTIONS.map((s) => s.type).sort()).toEqual(declared.sort());
    expect(IPS_SECTIONS.map((s) => s.title)).toEqual(['Problems', 'Allergies and Intolerances', 'Medication Summary', 'Results']);
  });
});
