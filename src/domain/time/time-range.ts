import { DomainError } from '../errors.js';
import { compactToEpochMs, filterParamToCompact, LOCAL_DATE_TIME_EXPECTED } from './local-time.js';

/** Inclusive bounds as compact 14-digit local times (`YYYYMMDDhhmmss`); either may be absent. */
export interface TimeRange {
  from?: string;
  to?: string;
}

function bound(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const compact = filterParamToCompact(value);
  if (compact === undefined) {
    throw new DomainError('INVALID_TIME_RANGE', `Query parameter ${name} must be ${LOCAL_DATE_TIME_EXPECTED}.`);
  }
  return compact;
}

/** Whether `range` has a bound: a range of neither is the whole record. */
export const isBounded = (range: TimeRange): boolean => range.from !== undefined || range.to !== undefined;

/** The names the caller gave the two bounds: the API's own, or the vendor's on its paths (`startActionDateTime`). */
export interface BoundNames {
  from: string;
  to: string;
}

const OWN_NAMES: BoundNames = { from: 'fromDateTime', to: 'toDateTime' };

/**
 * The inclusive filter of a read, from the API's `fromDateTime`/`toDateTime` (local time in `zone`).
 * A refusal names each bound as the caller sent it (`names`), never a parameter they did not send.
 */
export function timeRangeFrom(fromDateTime: string | undefined, toDateTime: string | undefined, zone: string, names: BoundNames = OWN_NAMES): TimeRange {
  const from = bound(names.from, fromDateTime);
  const to = bound(names.to, toDateTime);
  if (from !== undefined && to !== undefined && compactToEpochMs(from, zone) > compactToEpochMs(to, zone)) {
    throw new DomainError('INVALID_TIME_RANGE', `Query parameter ${names.from} must not be after ${names.to}.`);
  }
  const range: TimeRange = {};
  if (from !== undefined) range.from = from;
  if (to !== undefined) range.to = to;
  return range;
}
