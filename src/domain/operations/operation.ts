/**
 * What one operation of the API is, described once (docs/architecture.md#one-operation-one-place):
 * its scope, names, paths, parameters, answer, error shape, documentation and, for a read of patient
 * records, the read policy the one read use case applies. Routes, scope checks, the OpenAPI document,
 * the access log's names, the demo issuer's scopes and the tests' route tables are derived from the
 * table of these (table.ts); nothing else restates them.
 */
import type { Static, TObject, TSchema } from 'typebox';
import type { ResourceTypeDeclarations } from '../fhir/resources/resource-type.js';
import type { ReadPolicy } from '../read-policy/read-policy.js';

/** A name as a patient reads it in the access log, in Swedish and English. */
export interface DisplayName {
  sv: string;
  en: string;
}

/** `status`: `{statusCode, message}` (the spec's shape 1); `error`: `{error, path, status, timestamp}` (shape 2). */
export type ErrorShape = 'status' | 'error';

/** A scope as the API names it, what it allows, and the spellings of other authorization servers that count as it. */
export interface Scope {
  name: string;
  description: string;
  /**
   * Spellings beyond the SMART forms every scope has (`user/X-read` is also `user/X.read` and
   * `patient/X.read`): a vendor's or FHIR's resource name for the same data.
   */
  aliases?: readonly string[];
}

/** A group of operations in the documentation. */
export interface Tag {
  name: string;
  description: string;
}

export interface OperationDocs {
  tag: Tag;
  summary: string;
  description: string;
  /** What a successful answer holds, in a sentence. */
  success: string;
}

export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE';

/**
 * Where two operations share a path and method, the `api-version` value that selects each: the
 * older patient layout when it is absent, v2 with `v2`. `default` names what an absent value means
 * on a path with one layout only (care contacts: v2).
 */
export interface ApiVersionChoice {
  /** The value that selects this operation; undefined: the parameter is absent. */
  value: 'v2' | undefined;
  /** The layout an absent value stands for, as the refusal of another value says it. */
  whenAbsent: string;
}

interface OperationBase {
  /**
   * Where the operation is listed (routes, the OpenAPI document, the docs' tables): the spec's number
   * (1–10), then the vendor's reads beyond it (11, 12). A read a region adds has none and is listed
   * after the numbered ones, by name.
   */
  number?: number;
  scope: Scope;
  displayName: DisplayName;
  errorShape: ErrorShape;
  method: HttpMethod;
  /** The spec's path, with its trailing slash (both forms answer). */
  path: string;
  /** The EHR vendor's own paths for the same operation (Cambio Open Services). */
  vendorPaths: readonly string[];
  /** The query parameters it takes, as a closed object schema: any other parameter is refused. */
  query: TObject;
  apiVersion?: ApiVersionChoice;
  /**
   * The vendor's own names of query parameters, which its paths take too (`startActionDateTime` for
   * `fromDateTime`): the same meaning, and one given in both forms is refused.
   */
  vendorQueryNames?: Readonly<Record<string, string>>;
  docs: OperationDocs;
}

/** The answer of a read of patient records: an array of `item`. */
export interface RecordsAnswer<S extends TSchema> {
  item: S;
  /** The item's name in the OpenAPI document. */
  schemaName: string;
  maxItems?: number;
  /** The member of an item that can grow large (a record's extracts): serialised element by element. */
  bulk?: string;
  /** The vendor's published layout the answer follows (docs/vendor-layouts.md), where it follows one. */
  vendorLayout?: string;
  /**
   * The answer as the demo person sees it, every array cut to its first item: the OpenAPI document's
   * example. The read's `example.json`, written by `npm run openapi:examples` (a test compares it with
   * what the demo data answers).
   */
  example: readonly unknown[];
}

/** A read of one patient's records from the EHR, the same way for every such read. */
export interface RecordsRead<S extends TSchema = TSchema, F extends ResourceTypeDeclarations = ResourceTypeDeclarations> extends OperationBase {
  handler: 'records';
  method: 'GET';
  answer: RecordsAnswer<S>;
  policy: ReadPolicy<Static<S>>;
  /**
   * The FHIR resource types this read brings (its folder's `resource-types.ts`): each one's schema and
   * search parameters, gathered by src/domain/fhir/search-parameters.ts and the `fhir-r4` adapter's
   * checks. A type another read or every read shares is declared once, by the read that brought it
   * or in src/domain/fhir/resources/parties.ts.
   */
  fhirTypes?: F;
}

/** The patient's access log: a page of the audit trail, read by a use case of its own. */
export interface AccessLogRead extends OperationBase {
  handler: 'accessLog';
  method: 'GET';
}

/** A write of the EHR: `arrival` marks an appointment arrived, `payment` registers that it is paid. */
export interface Write extends OperationBase {
  handler: 'arrival' | 'payment';
  method: 'PUT' | 'POST';
  body: TObject;
  /** One ResultRecord, or (`array`) an array of one, as the spec has each write answer. */
  answer: { item: TSchema; schemaName: string; array: boolean };
}

/** A step of sharing one's record (docs/contract.md §11): the use case's method the route calls. */
export type ProxyAction = 'list' | 'get' | 'grant' | 'accept' | 'decline' | 'revoke';

/** What an operation does to the record, as FHIR's AuditEvent.action says it: C create, U update, D delete, E anything else (a read). */
export type AuditAction = 'C' | 'U' | 'D' | 'E';

/** Sharing's steps as changes: a grant is made, answered, or ended; listing and reading them change nothing. */
export const PROXY_AUDIT_ACTIONS: Readonly<Record<ProxyAction, AuditAction>> = {
  list: 'E', get: 'E', grant: 'C', accept: 'U', decline: 'U', revoke: 'D',
};

/**
 * Sharing one's record with a person of one's choice (docs/contract.md §11): the caller's own grants,
 * managed by the caller for themselves only. Not a read of the EHR and never open to a delegate.
 */
export interface ProxyOperation extends OperationBase {
  handler: 'proxy';
  action: ProxyAction;
  /** The path's parameters (`{id}`), as a closed object schema. */
  params?: TObject;
  body?: TObject;
  /** Whether the operation may change a grant: its attempt is audited before anything is kept. */
  changes: boolean;
  /** A grant (`array`: the list of them) and the status of a success: 201 for a new grant. */
  answer: { item: TSchema; schemaName: string; array: boolean; status: 200 | 201 };
}

export type Operation = RecordsRead | AccessLogRead | Write | ProxyOperation;

/**
 * A read of patient records, its policy typed by its answer's item. The policy keeps its own type, so
 * what it holds (a release rule) is known to the compiler: the tables typed by it name a new read.
 */
export const recordsRead = <S extends TSchema, const F extends ResourceTypeDeclarations = Record<never, never>, P extends ReadPolicy<Static<S>> = ReadPolicy<Static<S>>>(
  read: Omit<RecordsRead<S, F>, 'handler' | 'method' | 'policy'> & { policy: P },
): RecordsRead<S, F> & { policy: P } => ({ handler: 'records', method: 'GET', ...read });
