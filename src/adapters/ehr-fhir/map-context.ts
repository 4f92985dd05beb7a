/** What every FHIR mapper is given besides the resources: settings, the clock, and a place for notes. */
import type { TimeContext } from './fhir-time.js';

export interface MapContext extends TimeContext {
  /** FHIR_ID_ROOT: the OID root of the record ids made from logical ids (Own). */
  idRoot: string;
  /** Now, for the periods (of an address, an identifier) that have ended. */
  nowMs: number;
  /** FHIR_VIDEO_ACTION_ID_SYSTEM: the identifier system of numeric video action ids. */
  videoActionIdSystem?: string;
}
