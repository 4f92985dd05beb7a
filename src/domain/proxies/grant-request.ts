/**
 * A grant as a person asks for it (docs/contract.md §11): `{grantee, categories, validFrom?, validTo?,
 * purpose?}`, checked member by member. Every refusal names the member and says what it must be.
 */
import { DomainError } from '../errors.js';
import { shownValue } from '../redaction/shown-value.js';
import { hasReachedAge } from '../identity/legal-age.js';
import { birthDateOf, IDENTITY_NUMBER_EXPECTED, parsePersonalIdentityNumber } from '../identity/personal-identity-number.js';
import { compactToEpochMs, epochMsToCompact, filterParamToCompact, formatCompact, LOCAL_DATE_TIME_EXPECTED, localDate, wallClockAt } from '../time/local-time.js';
import { EVERY_CATEGORY, isCategory, PROXY_CATEGORIES } from './categories.js';
import type { ProxySettings } from './grant.js';
import { hidesText } from './hidden-text.js';
import { PURPOSE_MAX } from './purpose.js';

export { PURPOSE_MAX };

/**
 * A time the request names exactly (the FHIR door's dateTime with an offset): the instant itself, as a
 * local time would not say which of autumn's two 02:30s it is. `epochMs` on a whole second.
 */
export interface GrantInstant {
  epochMs: number;
}

export interface GrantRequest {
  grantee: string;
  categories: readonly string[];
  /** Local time `YYYY-MM-DDThh:mm:ss` in the EHR's zone (the COS door), or an instant. */
  validFrom?: string | GrantInstant;
  validTo?: string | GrantInstant;
  purpose?: string;
}

/** A request checked: the grantee's canonical number, the categories once each, the times as instants. */
export interface CheckedGrant {
  grantee: string;
  categories: string[];
  validFromMs: number;
  validToMs?: number;
  purpose?: string;
}

// Control characters, line and paragraph separators, lone surrogates, and the bidirectional controls
// (U+200E/F, U+202A–E, U+2066–9), which would make the text read otherwise on the other person's screen.
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const invalid = (message: string): DomainError => new DomainError('INVALID_REQUEST', message);
/** validTo covers the whole of its second: its milliseconds run to this. */
const LAST_MS_OF_SECOND = 999;

/** The last second a grant's times can say: the COS door writes them as 14 digits of local time. */
const LAST_TIME = '9999-12-31T23:59:59';
/** A start this little before now is a clock's skew, taken as now; one earlier is refused. */
export const PAST_START_SKEW_MS = 5 * 60_000;

function instant(name: string, value: string | GrantInstant, zone: string): number {
  if (typeof value !== 'string') {
    // An instant whose local time is past year 9999 (or before year 1) has no 14-digit local time.
    const compact = epochMsToCompact(value.epochMs, zone);
    if (!/^\d{14}$/.test(compact) || compact.startsWith('0000')) {
      throw invalid(`Body member ${name} must be a time from 0001-01-01T00:00:00 to ${LAST_TIME} in ${zone}.`);
    }
    return value.epochMs;
  }
  const compact = filterParamToCompact(value);
  if (compact === undefined) throw invalid(`Body member ${name} must be ${LOCAL_DATE_TIME_EXPECTED}.`);
  const ms = compactToEpochMs(compact, zone);
  // A time in spring's gap is shown by no instant: read as the hour after, it would end a grant later than asked.
  if (epochMsToCompact(ms, zone) !== compact) {
    throw invalid(`Body member ${name} is a time the clocks skip in ${zone} (the night they go forward): give a time before or after that hour.`);
  }
  return ms;
}

/**
 * The latest local time a grant from `fromMs` may end at under PROXY_MAX_DAYS: the same time of day that
 * many days on the local calendar, to the second, as validTo is written (hostile review helper-162, F7: its
 * last millisecond counted; re-review helper-165, F4: 24-hour periods moved the limit an hour across the
 * clocks' changes). Past year 9999 no validTo reaches it.
 */
function lastLocalTime(fromMs: number, days: number, zone: string): string {
  const from = wallClockAt(fromMs, zone);
  const last = new Date(Date.UTC(from.year, from.month - 1, from.day + days, from.hour, from.minute, from.second));
  if (last.getUTCFullYear() > 9999) return '99991231235959';
  return formatCompact({
    year: last.getUTCFullYear(), month: last.getUTCMonth() + 1, day: last.getUTCDate(), hour: last.getUTCHours(), minute: last.getUTCMinutes(), second: last.getUTCSeconds(),
  });
}

function grantee(raw: string, grantor: string, nowMs: number, zone: string): string {
  const number = parsePersonalIdentityNumber(raw);
  if (number === undefined) throw invalid(`Body member grantee must be ${IDENTITY_NUMBER_EXPECTED}.`);
  if (number === grantor) throw invalid('Body member grantee is your own number: name the person you want to share your record with.');
  if (!hasReachedAge(birthDateOf(number), 18, localDate(nowMs, zone))) {
    throw invalid('Body member grantee must be the number of a person aged 18 or over: a child cannot be given access to your record.');
  }
  return number;
}

function categories(raw: readonly string[]): string[] {
  if (raw.length === 0) throw invalid(`Body member categories must name at least one of ${PROXY_CATEGORIES.join(', ')}, or ${EVERY_CATEGORY} for everything.`);
  const unknown = raw.find((c) => !isCategory(c));
  if (unknown !== undefined) {
    throw invalid(`Body member categories holds ${shownValue(unknown)}, which cannot be shared: name ${PROXY_CATEGORIES.join(', ')}, or ${EVERY_CATEGORY} for everything (the access log and changes can never be shared).`);
  }
  return raw.includes(EVERY_CATEGORY) ? [EVERY_CATEGORY] : PROXY_CATEGORIES.filter((c) => raw.includes(c));
}

/**
 * A grant starts when it is given or later: a start in the past would have the record say the person
 * shared from a time before they did. A few minutes back is the caller's clock, taken as now.
 */
function startOf(askedMs: number, nowMs: number): number {
  if (askedMs < nowMs - PAST_START_SKEW_MS) throw invalid('Body member validFrom is in the past: give a time to come, or leave it out to share from now.');
  return Math.max(askedMs, nowMs);
}

/** Checks a grant `grantor` asks for at `nowMs`; throws a DomainError naming the member otherwise. */
export function checkGrantRequest(request: GrantRequest, grantor: string, nowMs: number, zone: string, settings: ProxySettings): CheckedGrant {
  const checked: CheckedGrant = {
    grantee: grantee(request.grantee, grantor, nowMs, zone),
    categories: categories(request.categories),
    validFromMs: request.validFrom === undefined ? nowMs : startOf(instant('validFrom', request.validFrom, zone), nowMs),
  };
  if (request.validTo !== undefined) {
    // Inclusive, as a read's bound is: every millisecond of its second.
    const to = instant('validTo', request.validTo, zone) + LAST_MS_OF_SECOND;
    // Past first: a validFrom a clock's skew back is taken as now, and a validTo between the two is past, not before it.
    if (to <= nowMs) throw invalid('Body member validTo is in the past: give a time to come, or leave it out to share until you end it.');
    if (to < checked.validFromMs) throw invalid('Body member validTo must not be before validFrom.');
    checked.validToMs = to;
  }
  if (settings.maxDays !== undefined) {
    if (checked.validToMs === undefined) throw invalid(`Body member validTo is required here: a grant may last at most ${settings.maxDays} days.`);
    if (epochMsToCompact(checked.validToMs - LAST_MS_OF_SECOND, zone) > lastLocalTime(checked.validFromMs, settings.maxDays, zone)) {
      throw invalid(`Body member validTo is too far from validFrom: a grant may last at most ${settings.maxDays} days.`);
    }
  }
  if (request.purpose !== undefined) {
    if ([...request.purpose].length > PURPOSE_MAX) throw invalid(`Body member purpose must be at most ${PURPOSE_MAX} characters.`);
    if (UNSHOWABLE.test(request.purpose) || hidesText(request.purpose)) {
      throw invalid('Body member purpose must be plain text on one line, without control or invisible characters.');
    }
    if (request.purpose !== '') checked.purpose = request.purpose;
  }
  return checked;
}
