/**
 * A read this region does not serve (issue 57 item 4): one read's absence never takes the others
 * down. The service stays ready, readiness names the read, and a call of it is answered 501 with
 * these words on both doors (docs/contract.md#errors), never 503: nothing a caller retries brings it.
 */
import type { ReadName } from '../operations/table.js';

/**
 * Why a read is not served: the region turned it off (READS_OFF), or its EHR cannot serve it (a FHIR
 * server whose CapabilityStatement lists no search parameter the read sends, docs/upstream-fhir.md#transport).
 */
export type Unavailability = 'turned-off' | 'ehr-lacks-searches';

/** The reads not served now, each with why. */
export type UnavailableReads = ReadonlyMap<ReadName, Unavailability>;

/** What readiness and the error say of each reason: fixed words, never the upstream's text. */
export const UNAVAILABILITY_TEXT: Readonly<Record<Unavailability, string>> = {
  'turned-off': 'the region has turned it off (READS_OFF)',
  'ehr-lacks-searches': "the region's EHR does not offer the searches it needs",
};

/** Every reason, as metrics label them. */
export const UNAVAILABILITIES = Object.keys(UNAVAILABILITY_TEXT) as Unavailability[];

export class ReadUnavailableError extends Error {
  constructor(readonly read: ReadName, readonly why: Unavailability) {
    super(`${read} is not available in this region: ${UNAVAILABILITY_TEXT[why]}. Every other read is served.`);
    this.name = 'ReadUnavailableError';
  }
}
