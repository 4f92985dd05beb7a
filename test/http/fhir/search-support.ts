/**
 * What the search, paging, include and audit tests of this folder share beyond fhir-calls.ts: the
 * links of a Bundle, paging to the end, each type's date element as docs/fhir-api.md#interactions
 * names it, and Stockholm wall clocks computed here (with Intl), not by the service's own code, so
 * a wrong reading of a zone-less value cannot hide behind the same mistake in the test.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { startTestAppOn, TEST_PUBLIC_BASE_URL, type AnyTestApp, type EhrVariant, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, NOW, smartToken, TOLVAN, type Bundle, type Resource } from './fhir-calls.js';

type App = TestApp | AnyTestApp;

export const ZONE = 'Europe/Stockholm';

/** Starts the app over `variant` before the block's tests, hands it and a `patient/*.read` token of Tolvan's to `started`, and closes it after. */
export function withTolvanOn(variant: EhrVariant, started: (app: AnyTestApp, token: string) => void): void {
  let app: AnyTestApp | undefined;
  beforeAll(async () => {
    app = await startTestAppOn(variant, { now: NOW });
    started(app, await smartToken(app, TOLVAN, 'patient/*.read'));
  }, 60_000);
  afterAll(async () => app?.close());
}

export const nextOf = (b: Bundle): string | undefined => b.link.find((l) => l.relation === 'next')?.url;
export const selfOf = (b: Bundle): string => b.link.find((l) => l.relation === 'self')?.url ?? '';
/** A link of an answer as the path the test app takes (links are absolute from TEST_PUBLIC_BASE_URL). */
export function local(url: string): string {
  expect(url.startsWith(`${TEST_PUBLIC_BASE_URL}/fhir/`), url).toBe(true);
  return url.slice(TEST_PUBLIC_BASE_URL.length);
}
export const keys = (rs: readonly Resource[]): string[] => rs.map((r) => `${r.resourceType}/${r.id}`);
export const cursorOf = (url: string): string => new URL(url).searchParams.get('_cursor') ?? '';

/** Every page of a search, its `next` links followed as given (at most `maxPages`). */
export async function allPages(t: App, url: string, token: string, maxPages = 100): Promise<Bundle[]> {
  const pages: Bundle[] = [];
  for (let at: string | undefined = url; at !== undefined && pages.length < maxPages;) {
    const page = bundleOf(await get(t, at, token));
    pages.push(page);
    const next = nextOf(page);
    at = next === undefined ? undefined : local(next);
  }
  return pages;
}

/** The patient-compartment types and the date parameter of each (docs/fhir-api.md#interactions). */
export const DATE_PARAMS = {
  Appointment: 'date', Encounter: 'date', AllergyIntolerance: 'date', Flag: 'date', MedicationRequest: 'authoredon',
  Composition: 'date', DiagnosticReport: 'issued', Observation: 'date', Condition: 'recorded-date', Procedure: 'date',
} as const;
export type DatedType = keyof typeof DATE_PARAMS;
export const DATED_TYPES = Object.keys(DATE_PARAMS) as DatedType[];

type Period = { start?: string; end?: string };
/** The element each type's date parameter reads, as docs/fhir-api.md names it: an instant, or a Period. */
export function dateElementOf(r: Resource): string | Period | undefined {
  const v = (name: string) => r[name] as string | Period | undefined;
  switch (r.resourceType) {
    case 'Appointment': return v('start');
    case 'Encounter': case 'Flag': return v('period');
    case 'AllergyIntolerance': case 'Condition': return v('recordedDate');
    case 'MedicationRequest': return v('authoredOn');
    case 'Composition': return v('date');
    case 'DiagnosticReport': return v('issued');
    case 'Observation': return v('effectiveDateTime') ?? v('effectivePeriod') ?? v('issued');
    case 'Procedure': return v('performedDateTime') ?? v('performedPeriod');
    default: return undefined;
  }
}

const WALL = new Intl.DateTimeFormat('sv-SE', {
  timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
});
/** Stockholm's wall clock at an instant, `YYYY-MM-DDTHH:mm:ss`. */
export const wallClockOf = (ms: number): string => WALL.format(new Date(ms)).replace(' ', 'T');
/** Stockholm's offset from UTC at an instant, in minutes. */
export const offsetMinutesAt = (ms: number): number => (Date.parse(`${wallClockOf(ms)}Z`) - ms) / 60_000;
/** The instant of a FHIR date or dateTime; a date alone (or a dateTime without zone) is Stockholm time. */
export function instantOf(value: string): number {
  if (/[Zz]$|[+-]\d\d:\d\d$/.test(value)) return Date.parse(value);
  const asUtc = Date.parse(value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
  return asUtc - offsetMinutesAt(asUtc - offsetMinutesAt(asUtc) * 60_000) * 60_000;
}
/** The first instant a date element stands for, and its last second's end (undefined: open-ended). */
export function spanOf(r: Resource): { start: number; end: number | undefined } | undefined {
  const element = dateElementOf(r);
  if (element === undefined) return undefined;
  if (typeof element === 'string') return { start: instantOf(element), end: instantOf(element) };
  if (element.start === undefined) return undefined;
  return { start: instantOf(element.start), end: element.end === undefined ? undefined : instantOf(element.end) };
}

/** Whether Stockholm's wall clock at `ms` also names another instant (the autumn's repeated hour). */
export function wallClockIsAmbiguous(ms: number): boolean {
  const wall = wallClockOf(ms);
  const readings = [-3, 3].map((hours) => Date.parse(`${wall}Z`) - offsetMinutesAt(ms + hours * 3_600_000) * 60_000);
  return new Set(readings.filter((at) => wallClockOf(at) === wall)).size > 1;
}
