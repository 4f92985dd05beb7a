/**
 * What a token's scopes grant, one meaning for both doors (docs/contract.md#scopes; hostile review
 * helper-141, F1: `patient/AuditEvent.rs` opened /fhir/AuditEvent and not the access log). The grants
 * are SMART's (smart-scopes.ts) and, for each COS read and the access log, the COS scope in every
 * spelling that counts as it, as a grant of every FHIR type its records are written as. The FHIR door
 * shows a record a grant gives; the COS door answers a read, all its records at once, where the grants
 * give every one of them, or where a spelling counts as its scope outright (the vendor's
 * `patient/Observation.read` the lab results, contract §2).
 */
import { scopeLetters, smartGrants, type Grant, type Interaction, type ScopeContext } from '../fhir/smart-scopes.js';
import { OPERATION_NAMES, OPERATIONS, type OperationName, type ReadName } from '../operations/table.js';
import type { ScopeHolder } from './scope-reach.js';
import { canonicalScope } from './scopes.js';

/** The FHIR types an operation's records are written as (a read's FHIR form, the access log's AuditEvent); none for any other. */
export type RecordTypes = (operation: OperationName) => readonly string[];

const BOTH: ReadonlySet<Interaction> = new Set<Interaction>(['read', 'search']);
const CONTEXTS: readonly ScopeContext[] = ['patient', 'user', 'system'];

/**
 * The scope as the COS door folds it: a SMART scope that lets a whole search be made (`s`, no category
 * restriction) in its v1 `.read` form, as SMART reads `.rs` and `.read` alike (`patient/Observation.rs`
 * counts as `patient/Observation.read` does); any other as written.
 */
function foldedSpelling(scope: string): string {
  const parts = scopeLetters(scope);
  if (parts === undefined || !parts.letters.has('s') || parts.category !== undefined) return scope;
  return `${parts.context}/${parts.type}.read`;
}

/** The COS scope a written scope counts as (scopes.ts): as written (`patient/Consent.rs` is sharing's), else through foldedSpelling. */
function countsAs(scope: string): string {
  const written = canonicalScope(scope);
  return written !== scope ? written : canonicalScope(foldedSpelling(scope));
}

/** One written scope, read once: what it counts as, in which context, and what it grants. */
interface ReadScope {
  /** The COS scope it counts as (itself when none). */
  countsAs: string;
  /** A `patient/` spelling grants in `patient`; any other in the holder's own context (a person's `user`, a client's `system`). */
  patientForm: boolean;
  /** SMART's grants of it as written. */
  smart: readonly Grant[];
  /** The operations with records whose COS scope it is a spelling of, and not a SMART scope of a type they write. */
  spells: readonly OperationName[];
}

/** Past this many distinct scopes the ones read are forgotten and read again: a bound, not a working set. */
const MAX_READ_SCOPES = 10_000;

export class ScopeGrants {
  private readonly recordOperations: readonly OperationName[];
  /** Every type some operation's records are written as: a SMART scope of one means that type, never a COS scope's spelling. */
  private readonly recordTypes: ReadonlySet<string>;
  private readonly read = new Map<string, ReadScope>();

  constructor(private readonly typesOf: RecordTypes) {
    this.recordOperations = OPERATION_NAMES.filter((op) => typesOf(op).length > 0);
    this.recordTypes = new Set(this.recordOperations.flatMap((op) => typesOf(op)));
  }

  /**
   * The grants of `written` scopes for a person's (`user`) or a client's (`system`) token: SMART's as
   * written, and each spelling of an operation's COS scope as a grant of its types in that spelling's
   * context, restricted to the read (`user/Appointment-read` the bookings, not the video meetings). A
   * spelling that is a SMART scope of a type this service writes (`patient/Observation.read`) means that
   * type here, as SMART says.
   */
  grantsOf(written: Iterable<string>, holder: ScopeContext): Grant[] {
    const grants: Grant[] = [];
    for (const scope of written) {
      const r = this.readScope(scope);
      grants.push(...r.smart);
      const context = r.patientForm ? 'patient' : holder;
      for (const operation of r.spells) {
        const read = readOf(operation);
        for (const type of this.typesOf(operation)) grants.push({ context, type, interactions: BOTH, ...(read === undefined ? {} : { read }) });
      }
    }
    return grants;
  }

  /**
   * The contexts in which `written` scopes let the COS door answer `operation`: where a spelling counts
   * as its scope (scopes.ts, foldedSpelling), or where the grants let a search show every record it
   * answers, of each of its types, unrestricted by category.
   */
  operationContexts(written: Iterable<string>, operation: OperationName, holder: ScopeHolder): Set<ScopeContext> {
    const own: ScopeContext = holder.personId === undefined ? 'system' : 'user';
    const apiScope = OPERATIONS[operation].scope.name;
    const types = this.typesOf(operation);
    const contexts = new Set<ScopeContext>();
    /** The types a whole search is granted of, by context (`*` for every type). */
    const searched = new Map<ScopeContext, Set<string>>();
    for (const scope of written) {
      const r = this.readScope(scope);
      if (r.countsAs === apiScope) contexts.add(r.patientForm ? 'patient' : own);
      if (types.length === 0) continue;
      for (const g of r.smart) {
        if (g.interactions.has('search') && g.category === undefined) setOf(searched, g.context).add(g.type);
      }
      // A spelling of a read's scope grants that read's records alone: the bookings' never the video meetings'.
      if (r.spells.includes(operation)) for (const type of types) setOf(searched, r.patientForm ? 'patient' : own).add(type);
    }
    for (const context of CONTEXTS) {
      const granted = searched.get(context);
      if (granted !== undefined && (granted.has('*') || types.every((type) => granted.has(type)))) contexts.add(context);
    }
    return contexts;
  }

  private readScope(scope: string): ReadScope {
    let r = this.read.get(scope);
    if (r !== undefined) return r;
    const name = countsAs(scope);
    const smart = smartGrants([scope]);
    const ofRecordType = smart.some((g) => g.type === '*' || this.recordTypes.has(g.type));
    r = {
      countsAs: name, patientForm: scope.startsWith('patient/'), smart,
      spells: ofRecordType ? [] : this.recordOperations.filter((op) => OPERATIONS[op].scope.name === name),
    };
    if (this.read.size >= MAX_READ_SCOPES) this.read.clear();
    this.read.set(scope, r);
    return r;
  }
}

const setOf = (map: Map<ScopeContext, Set<string>>, context: ScopeContext): Set<string> => {
  let set = map.get(context);
  if (set === undefined) map.set(context, set = new Set());
  return set;
};

/** The read an operation is, if it is one of the EHR's records (the access log is not). */
const readOf = (operation: OperationName): ReadName | undefined => (OPERATIONS[operation].handler === 'records' ? operation as ReadName : undefined);
