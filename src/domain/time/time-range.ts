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

/** The inclusive filter of a read, from the API's `fromDateTime`/`toDateTime` (local time in `zone`). */
export function timeRangeFrom(fromDateTime: string | undefined, toDateTime: string | undefined, zone: string): TimeRange {
  const from = bound('fromDateTime', fromDateTime);
  const to = bound('toDateTime', toDateTime);
  if (from !== undefined && to !== undefined && compactToEpochMs(from, zone) > compactToEpochMs(to, zone)) {
    throw new DomainError('INVALID_TIME_RANGE', 'Query parameter fromDateTime must not be after toDateTime.');
  }
  const range: TimeRange = {};
  if (from !== undefined) range.from = from;
  if (to !== undefined) range.to = to;
  return range;
}
