import type { ScopeGrants } from '../domain/access/scope-grants.js';
import type { ScopeContext } from '../domain/fhir/smart-scopes.js';
import type { ErrorShape } from '../domain/operations/operation.js';
import type { AuditedOperation } from '../domain/operations/fhir-operations.js';
import type { OperationName, ReadName } from '../domain/operations/table.js';
import type { PaymentType } from '../domain/writes/payment-types.js';
import type { VerifiedToken } from '../ports/access-token-verifier.port.js';

/** What the audit record of a request says about whom it was for. */
export interface AuditContext {
  /**
   * The operation the request turned out to be, once the route knows it (a Subscription created or
   * deleted is audited under its topic's step, known only from its body or its stored form); the
   * route's configured operation until then (src/http/operation-of.ts).
   */
  operation?: AuditedOperation;
  patientId?: string;
  delegation?: string;
  /**
   * A refusal's basis may be looked up before the answer leaves though a Patient id named the patient: the route
   * read the registry for them already, so the lookup's timing tells nothing more (src/http/audit-record.ts refusalSubject).
   */
  lookUpBasis?: true;
  /** The proxy grant a sharing request was about, once the route found it the caller's (docs/proxies.md#audited-and-shown). */
  proxyGrantId?: string;
  /** How many items the release policy withheld from the answer (docs/contract.md#only-what-may-be-released); never which. */
  withheld?: number;
  /** What the EHR answered a write, `OK ARRIVAL_REGISTERED` (OutcomeRecord.writeResult). */
  writeResult?: string;
  /** The booking a write was about, once its answer shows it is the patient's (confirmsBooking; OutcomeRecord.contactId). */
  booking?: { contactId: string; paymentType?: PaymentType };
  /** A change's attempt record is stored (recordWriteAttempt): from here on it may be made, recorded or not. */
  attempted?: true;
  /**
   * Set by a request that may read several patients' records (a FHIR search or read under `user/`
   * scopes): each patient whose records it read, once access was granted, with the basis and what was
   * withheld from theirs. Each gets an outcome record of their own (src/http/audit-record.ts), so each
   * finds the request in their access log and nobody refused is named as read.
   */
  patientsRead?: Map<string, PatientRead>;
  /**
   * The reads a FHIR search or read made of its one patient's records, in order, the type's own first
   * (of several patients: PatientRead.reads): its record is named for the first of the type's reads that
   * was made (src/http/audit-record.ts).
   */
  reads?: Set<ReadName>;
  /**
   * The reads whose records a read by id answered (the record's own; a party's, each read whose shown records
   * name it), or a search of a party's type its page's parties: its record is named for the first made and
   * names the rest (of several patients: PatientRead.answeredBy).
   */
  answeredBy?: readonly ReadName[];
  /**
   * The reads whose records the answer holds (a search's page: src/http/fhir/shown-reads.ts; a `$summary`: every
   * read it made, an empty section saying "none"): the record names those of `reads` besides its operation (of
   * several patients: PatientRead.shownReads).
   */
  shownReads?: readonly ReadName[];
  /**
   * The request read nobody and named nobody the service knows: a listing that matched no one it may
   * read, a Patient id this service did not make. Its one record names no patient (not the caller
   * instead), so it is in no patient's access log, as a tallied refusal is not.
   */
  nobody?: true;
}

/** One patient's part of a request that read several (AuditContext.patientsRead). */
export interface PatientRead {
  delegation: string;
  withheld: number;
  /** The kinds of data read of this patient (AuditContext.reads). */
  reads?: Set<ReadName>;
  /** The reads whose records of this patient a read by id or a party search answered (AuditContext.answeredBy). */
  answeredBy?: readonly ReadName[];
  /** The reads whose records of this patient the answer holds (AuditContext.shownReads). */
  shownReads?: readonly ReadName[];
}

export type { ErrorShape };
/** How a route answers an error: one of the spec's two shapes, or FHIR's OperationOutcome (the /fhir routes). */
export type AnswerShape = ErrorShape | 'fhir';

declare module 'fastify' {
  interface FastifyRequest {
    subscription: string | undefined;
    token: VerifiedToken | undefined;
    /** Why the request's credentials were refused (its key, or the token beside a valid key); thrown once the rate limit has counted the request. */
    tokenRefusal: unknown;
    audit: AuditContext;
    /** Whose rate budget a verified request spends: `sub:<subscription>`, or on /fhir without a key `client:<client_id>`. */
    budget: string | undefined;
    /** The caller's X-Request-Id as kept for operators, `''` when none was sent (src/http/request-id.ts); read when first asked for. */
    callerRequestId: string | undefined;
    /** What the token's scopes grant the request's COS operation, decided once (src/http/granted-contexts.ts). */
    operationGrant: { token: VerifiedToken; operation: OperationName; contexts: ReadonlySet<ScopeContext> } | undefined;
  }
  interface FastifyInstance {
    /** Stores the attempt record of a write (src/http/plugins/audit.ts); throws AuditUnavailableError if it cannot. */
    recordWriteAttempt(request: FastifyRequest): Promise<void>;
    /**
     * Stops accepting connections and resolves once every request that reached a socket has been
     * answered and every connection closed (src/http/connection-drain.ts); `close()` comes after.
     */
    drainConnections(): Promise<void>;
    /** What a token's scopes grant, the same on every door (RouteDependencies.scopeGrants). */
    scopeGrants: ScopeGrants;
  }
  interface FastifyContextConfig {
    operation?: AuditedOperation;
    /** Where one route serves two operations, the one each `api-version` value selects. */
    operationByVersion?: Readonly<Record<string, OperationName>>;
    errorShape?: AnswerShape;
    /** A FHIR API route (src/http/fhir): the subscription key is optional and the route checks SMART scopes itself. */
    fhir?: true;
    /** A FHIR route's patient for a request refused before the route named one, and whether a parameter named them (src/http/fhir/presumed-patient.ts). */
    presumedPatient?: (request: FastifyRequest) => { patient: string; named: boolean } | undefined;
    /** Open to anyone, without credentials: the FHIR API's discovery documents only. */
    open?: true;
  }
}
