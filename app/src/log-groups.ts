/**
 * The access log as a phone can show it: its events grouped by day (Swedish time) and, within a
 * day, by who acted through which app, newest first, then paged by groups. Each time the app is
 * opened it reads the record (a dozen events); those fold into the day's one group of that person
 * and app instead of burying everything else. The order never depends on the order the server
 * answered in: events by time then id, groups by their latest event then key.
 */
import type { AuditEvent } from './fhir-types.js';

/** One person (by basis and identity) through one app on one day, newest event first. */
export interface LogGroup { key: string; day: string; events: AuditEvent[]; latest: number; earliest: number }
export interface LogDay { day: string; groups: LogGroup[] }
export interface LogPage { days: LogDay[]; page: number; pages: number }

const timeOf = (e: AuditEvent): number => Date.parse(e.recorded ?? '') || 0;

/** Newest first; two in one millisecond by id, so a reload shows the same order. */
const newestFirst = (a: AuditEvent, b: AuditEvent): number => timeOf(b) - timeOf(a) || (b.id ?? '').localeCompare(a.id ?? '');

/** Who acted (the requesting agent's basis and identity) and through which app (the other agent). */
export function actorKey(e: AuditEvent): string {
  const person = e.agent?.find((a) => a.requestor === true);
  const app = e.agent?.find((a) => a.requestor !== true);
  return JSON.stringify([person?.type?.text ?? '', person?.who?.identifier?.value ?? person?.who?.display ?? '', app?.who?.identifier?.value ?? app?.who?.display ?? '']);
}

/** The log's days, newest first, each with its groups, newest first. */
export function groupLog(events: readonly AuditEvent[], dayOf: (epochMs: number) => string): LogDay[] {
  const groups = new Map<string, LogGroup>();
  for (const e of [...events].sort(newestFirst)) {
    const day = dayOf(timeOf(e));
    const key = `${day}|${actorKey(e)}`;
    const group = groups.get(key) ?? { key, day, events: [], latest: timeOf(e), earliest: timeOf(e) };
    group.events.push(e);
    group.earliest = timeOf(e);
    groups.set(key, group);
  }
  const days = new Map<string, LogGroup[]>();
  for (const g of [...groups.values()].sort((a, b) => b.latest - a.latest || a.key.localeCompare(b.key))) {
    days.set(g.day, [...days.get(g.day) ?? [], g]);
  }
  return [...days.entries()].sort(([a], [b]) => b.localeCompare(a)).map(([day, list]) => ({ day, groups: list }));
}

/** Page `page` (from 0, kept within the pages there are) of `perPage` groups; a day split by a page break is named on both. */
export function pageOf(days: readonly LogDay[], page: number, perPage: number): LogPage {
  const all = days.flatMap((d) => d.groups);
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  const at = Math.min(Math.max(0, Math.floor(page)), pages - 1);
  const shown = new Set(all.slice(at * perPage, (at + 1) * perPage));
  const kept = days.map((d) => ({ day: d.day, groups: d.groups.filter((g) => shown.has(g)) })).filter((d) => d.groups.length > 0);
  return { days: kept, page: at, pages };
}
