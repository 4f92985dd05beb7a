/**
 * A read's records as FHIR, written once per version of the records (BENCHMARKS.md part 10): an EHR
 * adapter that keeps what it mapped (the embedded EHR maps a document once per version of its file)
 * answers the same record objects on every request, and writing them as FHIR again cost a journal's
 * search a third of its CPU.
 *
 * What is remembered is a pure function of what it is looked up by: the records, compared by
 * identity two levels down (a read's container is made anew by the time selection and the release
 * policy on every request, the extracts it holds are the adapter's own objects: the same container
 * members, `===`, every one, in order; records are never changed once mapped, and masking makes new
 * ones), the read, and everything the context writes them with (the patient, the zone, the patient
 * document's protection mark; one memo per
 * API instance, made with its routes at start-up, so the id key and roots are its own). Nothing of
 * the caller: scopes, categories and includes are applied to the resources afterwards, on every
 * request. `xml-http` answers its kept records while the EHR answers 304 (docs/upstream-ehr.md#7-conditional-requests).
 * Records an adapter maps anew for each request (`xml-http` from an EHR without validators, `fhir-r4`)
 * are never found again, and the memo goes with them: it holds its entries only as long as something
 * else holds the first extract.
 */
import type { ReadName } from '../../domain/operations/table.js';
import type { AsFhirContext, FhirForm, FhirResource } from '../../reads/as-fhir.js';

interface Written {
  read: ReadName;
  /** The patient, zone and patient document's protection mark the resources were written for. */
  writtenFor: string;
  records: readonly unknown[];
  resources: readonly FhirResource[];
}

/** Whether two members are the same: one value, or arrays of the same values in order. */
const sameMember = (a: unknown, b: unknown): boolean => a === b
  || (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]));

/** Whether two records are the same object, or containers of the same members (sameMember). */
function sameRecord(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameMember((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const sameRecords = (a: readonly unknown[], b: readonly unknown[]): boolean => a.length === b.length && a.every((r, i) => sameRecord(r, b[i]));

/** The object the records are looked up by: the first extract of the first container (the container itself when it holds none). */
function anchorOf(records: readonly unknown[]): object | undefined {
  const first = records[0];
  if (typeof first !== 'object' || first === null) return undefined;
  for (const member of Object.values(first)) {
    if (Array.isArray(member) && typeof member[0] === 'object' && member[0] !== null) return member[0] as object;
  }
  return first;
}

/** Freezes `value` and everything in it (a resource is plain JSON data). */
function freezeWhole<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  // Into frozen members too: a form may share a constant frozen at its top only.
  Object.freeze(value);
  for (const inner of Object.values(value)) freezeWhole(inner);
  return value;
}

export class WrittenForms {
  // By the first extract: an object every lookup of the same records holds.
  private readonly byFirst = new WeakMap<object, Written[]>();

  /** `form.resources(records, ctx)`, or what it answered for exactly these records, read and patient before. */
  resources<R extends ReadName>(read: R, form: FhirForm<R>, records: Parameters<FhirForm<R>['resources']>[0], ctx: AsFhirContext, patient: string): readonly FhirResource[] {
    const first = anchorOf(records);
    if (first === undefined) return form.resources(records, ctx);
    const writtenFor = `${patient}|${ctx.zone}|${ctx.protectedInPatientDocument ? 'protected' : ''}`;
    const known = this.byFirst.get(first) ?? [];
    const hit = known.find((w) => w.read === read && w.writtenFor === writtenFor && sameRecords(w.records, records));
    if (hit !== undefined) return hit.resources;
    const written = form.resources(records, ctx);
    // Kept records (frozen: an adapter's kept mapping) make kept resources, frozen whole: their Bundle entries are
    // then written once (searchset-bytes.ts). Resources of records mapped anew are left as made.
    const resources = Object.freeze(Object.isFrozen(first) ? written.map(freezeWhole) : written);
    // The newest few only: a record of one read and one patient has one entry in practice.
    this.byFirst.set(first, [{ read, writtenFor, records: [...records], resources }, ...known].slice(0, 4));
    return resources;
  }
}
