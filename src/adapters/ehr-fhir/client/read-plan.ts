/**
 * How one read of patient records is asked of a FHIR server (docs/upstream-fhir.md#0-at-a-glance): the
 * searches it sends (beyond the patient lookup), the references its mapping follows, and the mapper.
 * A read's folder gives its own (src/reads/<read>/sources.ts); read-plans.ts gathers them. Time bounds
 * are widened by an hour on each side and sent in UTC; the exact selection is made again on the mapped
 * answer, as for every EHR.
 */
import type { ReadItem, ReadName } from '../../../domain/operations/table.js';
import { compactToEpochMs, epochMsToUtcIso } from '../../../domain/time/local-time.js';
import type { TimeRange } from '../../../domain/time/time-range.js';
import type { MapContext } from '../map-context.js';
import type { ReadInput } from '../read-input.js';
import type { ResourceType } from '../schemas/index.js';
import type { FollowRules } from './reference-resolution.js';
import type { SearchParams } from './search-url.js';

const HOUR_MS = 3_600_000;

export interface SearchPlan {
  type: ResourceType;
  params(patientId: string, range: TimeRange, zone: string): SearchParams;
}

/**
 * Resources that name the matches, asked for by `_revinclude`; read with a search of their own when
 * the server sent none of them (it ignores `_revinclude`, as Medplum 4 does).
 */
export interface ReversePlan {
  type: ResourceType;
  /** The search parameter of `type` that names a match (`Condition/<id>`). */
  param: string;
}

export interface ReadPlan<R extends ReadName> {
  searches: readonly SearchPlan[];
  reverse?: ReversePlan;
  follows: FollowRules;
  map(input: ReadInput, ctx: MapContext): ReadItem<R>[];
}

/** `name=ge…&name=le…` in UTC, an hour wider on each side than the 14-digit bounds (either may be absent). */
export function timeBounds(name: string, range: TimeRange, zone: string): SearchParams {
  const bound = (compact: string, shift: number) => epochMsToUtcIso(compactToEpochMs(compact, zone) + shift);
  return [
    ...(range.from === undefined ? [] : [[name, `ge${bound(range.from, -HOUR_MS)}`] as const]),
    ...(range.to === undefined ? [] : [[name, `le${bound(range.to, HOUR_MS)}`] as const]),
  ];
}

/** `_include` (or, with a leading `iterate `, `_include:iterate`) of each name. */
export const includes = (...names: string[]): SearchParams => names.map((n) => [n.startsWith('iterate ') ? '_include:iterate' : '_include', n.replace('iterate ', '')]);

export const APPOINTMENT_INCLUDES = includes('Appointment:actor', 'iterate Location:organization', 'iterate HealthcareService:organization',
  'iterate PractitionerRole:organization', 'iterate PractitionerRole:practitioner');

/** Appointments of the patient in the range, of the statuses given, with who and where. */
export const appointmentSearch = (statuses: string): SearchPlan => ({
  type: 'Appointment',
  params: (id, range, zone) => [['patient', `Patient/${id}`], ...timeBounds('date', range, zone), ['status', statuses], ...APPOINTMENT_INCLUDES],
});

/** A search by patient and time with includes. */
export const byPatient = (type: ResourceType, timeParam: string, more: SearchParams): SearchPlan => ({
  type,
  params: (id, range, zone) => [['patient', `Patient/${id}`], ...timeBounds(timeParam, range, zone), ...more],
});
