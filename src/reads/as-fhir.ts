/**
 * A read's records as FHIR R4 resources, for the service's own FHIR API (docs/fhir-api.md): the
 * forms of docs/upstream-fhir.md §3 read backwards, so the project speaks one FHIR dialect in and
 * out, and the `fhir-r4` adapter reading these resources answers the records it was given. Each read
 * gives its form in its folder (src/reads/<read>/as-fhir.ts) beside its upstream sources.
 */
import type { ReadItem, ReadName } from '../domain/operations/table.js';
import type { AppView } from './app-view.js';

/** A resource as the API answers it: JSON with the type and id every resource has. */
export interface FhirResource {
  readonly resourceType: string;
  readonly id: string;
  readonly [member: string]: unknown;
}

/** A record id as the answers carry one (`ehrId`, `rcId`, a unit's HSA id). */
export interface RecordId {
  readonly root: string;
  readonly extension: string;
}

/** What every form is given besides the records: the patient's FHIR id, ids, settings. */
export interface AsFhirContext {
  /** `Patient/<id>`: the patient the records are about, by the id FHIR_ID_SECRET derives. */
  readonly patientReference: string;
  /**
   * The logical id of a resource of `type` for a record id: the id Own made it from (the root is
   * FHIR_ID_ROOT and the extension `<type>/<id>`), else the extension where it is a valid FHIR id,
   * else a keyed digest of root and extension (an id never carries an identity number).
   */
  readonly idOf: (type: string, record: RecordId) => string;
  /** FHIR_ID_ROOT: the root of the record ids made from logical ids. */
  readonly idRoot: string;
  /** EHR_TIMEZONE: the zone 14-digit local times are read in. */
  readonly zone: string;
  /**
   * Whether the patient document (the older layout, which every access decision reads: PatientAccess.patientRecords)
   * marks the patient a protected identity. The EHR marks it in either patient document (docs/contract.md#token-kinds),
   * so a Patient written from either layout says so (hostile review helper-205, F2).
   */
  readonly protectedInPatientDocument: boolean;
  /** FHIR_VIDEO_ACTION_ID_SYSTEM: the identifier system of numeric video action ids. */
  readonly videoActionIdSystem?: string;
}

/** How the FHIR API serves one read. */
export interface FhirForm<R extends ReadName> {
  /** The resource types of this read's records, those a search of the read matches (the first its main one). */
  readonly types: readonly string[];
  /**
   * The read's records as resources: each record's resources and every resource they reference
   * (Organization, Practitioner, PractitionerRole, Location, Medication …), each `Type/id` once, in
   * the records' order. Text is copied exactly as the records have it.
   */
  readonly resources: (items: readonly ReadItem<R>[], ctx: AsFhirContext) => FhirResource[];
  /** How the patient app shows the read (src/reads/app-view.ts): the search it sends and the view that renders it. */
  readonly app: AppView;
}
