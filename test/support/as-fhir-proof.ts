/**
 * The proof each read's FHIR form gives in its folder (src/reads/<read>/as-fhir.test.ts): for every
 * demo person, the records written as FHIR are valid R4, each resource once, the matches name the
 * patient, and the `fhir-r4` adapter reads back exactly the records it was given, but for the
 * members `differences` names, each with the reason it cannot come back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReadItem, ReadName } from '../../src/domain/operations/table.js';
import type { FhirForm } from '../../src/reads/as-fhir.js';
import { isServed } from '../../src/reads/read-sources.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { asFhirContext, readBack, received, recordsOverFhir, repeatedKeys, structureProblems, type PersonRecords } from './as-fhir-round-trip.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A member (path with `*` for positions) that does not come back, and why. */
export interface LostMember {
  member: string;
  why: string;
}

/** Every leaf path where the two differ, positions written `*`. */
function differingPaths(a: Json | undefined, b: Json | undefined, path: string, out: Set<string>): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const x = a as Record<string, Json>;
    const y = b as Record<string, Json>;
    for (const key of new Set([...Object.keys(x), ...Object.keys(y)])) differingPaths(x[key], y[key], `${path}/${/^\d+$/.test(key) ? '*' : key}`, out);
    return;
  }
  out.add(path.replace(/^\//, ''));
}

const covered = (member: string, lost: readonly LostMember[]): boolean => lost.some((l) => member === l.member || member.startsWith(`${l.member}/`));

export function describeFhirForm<R extends ReadName>(read: R, lost: readonly LostMember[] = []): void {
  describe(`${read} as FHIR: one dialect, in and out`, () => {
    let people: PersonRecords<R>[] = [];
    beforeAll(async () => {
      people = await recordsOverFhir(read);
    }, 60_000);

    const form = (): FhirForm<R> => {
      const f = READ_SOURCES[read].asFhir as FhirForm<R> | string;
      if (typeof f === 'string' || !isServed(f)) throw new Error(`${read} declares no FHIR form`);
      return f;
    };

    it('has records to write for the demo people', () => {
      expect(people.filter((p) => p.records.length > 0).length, read).toBeGreaterThan(0);
    });

    it('writes valid R4 resources, each Type/id once, its matches naming the patient', () => {
      for (const { person, records } of people) {
        const ctx = asFhirContext(person);
        const resources = form().resources(records, ctx);
        expect(structureProblems(resources), person.id).toEqual([]);
        expect(repeatedKeys(resources), person.id).toEqual([]);
        const unnamed = resources.filter((r) => form().types.includes(r.resourceType) && r.resourceType !== 'Patient'
          && !JSON.stringify(r).includes(`"reference":"${ctx.patientReference}"`));
        expect(unnamed.map((r) => `${r.resourceType}/${r.id}`), person.id).toEqual([]);
      }
    });

    it('reads back the records it was given, but the members that cannot come back', () => {
      const used = new Set<string>();
      for (const { person, records } of people) {
        const back = readBack(read, person, received(form().resources(records, asFhirContext(person))));
        const paths = new Set<string>();
        differingPaths(records as unknown as Json, back as unknown as Json, '', paths);
        const unexplained = [...paths].filter((p) => {
          const member = p.replace(/^\*\//, '');
          const l = lost.find((x) => member === x.member || member.startsWith(`${x.member}/`));
          if (l !== undefined) used.add(l.member);
          return !covered(member, lost);
        });
        expect(unexplained, `${person.id}: members that did not come back`).toEqual([]);
        expect(back.length, person.id).toBe(records.length);
      }
      // Every member listed as lost is lost for someone: the list does not outlive the mapping.
      expect(lost.map((l) => l.member).filter((m) => !used.has(m)), 'listed as lost but came back').toEqual([]);
    });
  });
}

export type { ReadItem };
