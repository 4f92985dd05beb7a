/** Settings of the FHIR R4 adapter (docs/upstream-fhir.md#settings), beside the shared transport's. */
import type { FhirRole } from '../client/capabilities.js';
import type { TransportEvent, TransportOptions } from '../../ehr-http/transport.js';
import type { DelegationTag } from '../relationships.js';
import type { Authorization } from './transport-exchange.js';

export type FhirEhrEvent =
  | TransportEvent
  /** A search parameter a read needs that the CapabilityStatement does not list, or a FHIR version other than 4.0. */
  | { type: 'capability-missing'; resource: string; param: string }
  /** The reads a missing search parameter makes unavailable (the others serve), told with each fresh statement that lacks one. */
  | { type: 'reads-unavailable'; reads: string[] }
  | { type: 'capability-version'; fhirVersion: string }
  /** The server refused a request: its status and the issues' severity/code only (never its text). */
  | { type: 'refusal'; status: number; issues: string | undefined }
  /** Why a write was not made, or what it found (a duplicate PaymentNotice): fixed text, no personal data. */
  | { type: 'write-note'; detail: string };

/**
 * FHIR_MAX_PAGE_BYTES by default: a larger answer body is refused while it streams. Less than the
 * 10 MiB every EHR answer is capped at, since a read holds up to FHIR_MAX_PAGES pages of it.
 */
export const FHIR_MAX_PAGE_BYTES = 4 * 1024 * 1024;

export interface FhirEhrOptions extends Omit<TransportOptions, 'media' | 'onEvent' | 'maxBodyBytes'> {
  /** EHR_TIMEZONE. */
  zone: string;
  /** FHIR_ID_ROOT, FHIR_VIDEO_ACTION_ID_SYSTEM, FHIR_PAGE_SIZE, FHIR_MAX_PAGES. */
  idRoot: string;
  videoActionIdSystem?: string;
  pageSize: number;
  maxPages: number;
  /** FHIR_MAX_PAGE_BYTES: the cap of every answer body; FHIR_MAX_PAGE_BYTES's default when absent. */
  maxPageBytes?: number;
  /** Bytes of large answers held at once, and asked for or waiting (documents-in-flight.ts, fetch-room.ts); their defaults when absent. */
  documentBytesInFlight?: number;
  fetchRoomBytes?: number;
  /** FHIR_DELEGATION_TAG and FHIR_PAYMENT_ID_SYSTEM. */
  delegationTag: DelegationTag;
  paymentIdSystem: string;
  /** What the server is asked for, so its readiness checks only that (client/capabilities.ts); both by default. */
  role?: FhirRole;
  /** The Authorization of each request (FHIR_AUTH=smart-backend); none by default. */
  authorization?: Authorization;
  /** Told why a record was left out of an answer (no personal data in the reason). */
  onDropped: (reason: string) => void;
  onEvent?: (event: FhirEhrEvent) => void;
}
