/**
 * What a token's scopes grant, one meaning for both doors (docs/contract.md#scopes; hostile review
 * helper-141, F1: `patient/AuditEvent.rs` opened /fhir/AuditEvent and not the access log). The grants
 * are SMART's (smart-scopes.ts) and, for each COS read and the access log, the COS scope in every
 * spelling that counts as it, as a grant of every FHIR type its records are written as. The FHIR door
 * shows a record a grant gives; the COS door answers a read, all its records at once, where the grants
 * let a search show every one of them, or where a spelling that searches counts as its scope outright
 * (the vendor's `patient/Observation.read` the lab results, contract §2).
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
 * A SMART v2 form that reads (`r`, `s`; no category restriction), not itself a listed spelling, as its v1
 * `.read` form, which SMART reads alike: `patient/Observation.rs` is `patient/Observation.read`. Undefined for any other.
 */
function v2Reading(scope: string): { context: ScopeContext; v1: string } | undefined {
  const parts = scopeLetters(scope);
  if (parts === undefined || parts.category !== undefined || canonicalScope(scope) !== scope || /\.(read|write)$/.test(scope)) return undefined;
  return parts.letters.has('r') || parts.letters.has('s') ? { context: parts.context, v1: `${parts.context}/${parts.type}.read` } : undefined;
}

const countedAs = (scope: string, v2: ReturnType<typeof v2Reading>): string => canonicalScope(v2?.v1 ?? scope);

/** The COS scope a written scope counts as where an operation has records (a read, the access log): ReadScope.asRead. */
export const readScopeOf = (scope: string): string => countedAs(scope, v2Reading(scope));

/** One written scope, read once: what it counts as, in which context, and what it grants. */
interface ReadScope {
  /** The COS scope it counts as where an operation has no records (a write, sharing): as written alone (scopes.ts). */
  asWritten: string;
  /**
   * The COS scope it counts as where an operation has records: as written, or a SMART v2 form that reads
   * (`r`, `s`; no category restriction) as its v1 `.read` form, as SMART reads `.rs` and `.read` alike.
   */
  asRead: string;
  /** What the spelling lets be done with the records of the read it counts as: its own letters, both for a v1 form or a COS name. */
  interactions: ReadonlySet<Interaction>;
  /**
   * Where the spelling grants: `patient` for a `patient/` one; a v2 form in the context it names (`user/`
   * is a person's, never a client's: helper-142, F3); any other in the holder's own (a person's `user`,
   * a client's `system`), as the COS scope itself does.
   */
  context: ScopeContext | 'holder';
  /** SMART's grants of it as written. */
  smart: readonly Grant[];
  /** The operations with records whose COS scope it spells, where it is not a SMART scope of a type they write. */
  spells: readonly OperationName[];
}

/** Past this many distinct scopes the ones read are forgotten and read again: a bound, not a working set. */
const MAX_READ_SCOPES = 1024;
/** A scope longer than any this service names is read each time, never kept (hostile review helper-142: 8 KB scopes). */
const MAX_KEPT_SCOPE_LENGTH = 256;

export class ScopeGrants {
  private readonly recordOperations: readonly OperationName[];
  /** Every type some operation's records are written as: a SMART scope of one means that type, never a COS scope's spelling. */
  private readonly recordTypes: ReadonlySet<string>;
  private readonly kept = new Map<string, ReadScope>();

  constructor(private readonly typesOf: RecordTypes) {
    this.recordOperations = OPERATION_NAMES.filter((op) => typesOf(op).length > 0);
    this.recordTypes = new Set(this.recordOperations.flatMap((op) => typesOf(op)));
  }

  /**
   * The grants of `written` scopes for a person's (`user`) or a client's (`system`) token: SMART's as
   * written, and each spelling of an operation's COS scope as a grant of its types, restricted to the
   * read (`user/Appointment-read` the bookings, not the video meetings), for what its letters allow. A
   * spelling that is a SMART scope of a type this service writes (`patient/Observation.read`) means that
   * type here, as SMART says.
   */
  grantsOf(written: Iterable<string>, holder: ScopeContext): Grant[] {
    const grants: Grant[] = [];
    for (const scope of written) {
      const r = this.readScope(scope);
      grants.push(...r.smart);
      const context = r.context === 'holder' ? holder : r.context;
      for (const operation of r.spells) {
        const read = readOf(operation);
        for (const type of this.typesOf(operation)) grants.push({ context, type, interactions: r.interactions, ...(read === undefined ? {} : { read }) });
      }
    }
    return grants;
  }

  /**
   * The contexts in which `written` scopes let the COS door answer `operation`. One with records (a read,
   * the access log) answers them all, found by a search: where a spelling that searches counts as its
   * scope, or where the grants let a search show every record, of each of its types, unrestricted by
   * category. Any other (a write, sharing) where a spelling as written counts as its scope.
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
      const context = r.context === 'holder' ? own : r.context;
      if (types.length === 0) {
        if (r.asWritten === apiScope) contexts.add(context);
        continue;
      }
      if (r.asRead === apiScope && r.interactions.has('search')) contexts.add(context);
      for (const g of r.smart) {
        if (g.interactions.has('search') && g.category === undefined) setOf(searched, g.context).add(g.type);
      }
    }
    for (const context of CONTEXTS) {
      const granted = searched.get(context);
      if (granted !== undefined && (granted.has('*') || types.every((type) => granted.has(type)))) contexts.add(context);
    }
    return contexts;
  }

  private readScope(scope: string): ReadScope {
    const kept = this.kept.get(scope);
    if (kept !== undefined) return kept;
    const r = this.readAfresh(scope);
    if (scope.length <= MAX_KEPT_SCOPE_LENGTH) {
      if (this.kept.size >= MAX_READ_SCOPES) this.kept.clear();
      this.kept.set(scope, r);
    }
    return r;
  }

  private readAfresh(scope: string): ReadScope {
    const v2 = v2Reading(scope);
    const asRead = countedAs(scope, v2);
    const smart = smartGrants([scope]);
    const ofRecordType = smart.some((g) => g.type === '*' || this.recordTypes.has(g.type));
    return {
      // A v2 form's letters as SMART reads them (its one grant); a v1 form or a COS name both.
      asWritten: canonicalScope(scope), asRead, smart, interactions: v2 === undefined ? BOTH : smart[0]?.interactions ?? BOTH,
      context: scope.startsWith('patient/') ? 'patient' : v2 !== undefined ? v2.context : 'holder',
      spells: ofRecordType ? [] : this.recordOperations.filter((op) => OPERATIONS[op].scope.name === asRead),
    };
  }
}

const setOf = (map: Map<ScopeContext, Set<string>>, context: ScopeContext): Set<string> => {
  let set = map.get(context);
  if (set === undefined) map.set(context, set = new Set());
  return set;
};

/** The read an operation is, if it is one of the EHR's records (the access log is not). */
const readOf = (operation: OperationName): ReadName | undefined => (OPERATIONS[operation].handler === 'records' ? operation as ReadName : undefined);
