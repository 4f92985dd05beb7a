/** What every hostile case asserts about the caller's answer, the process and its memory. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import { expectDeadlineKept } from '../../support/scheduling.js';
import { EHR_TIMEOUT_MS, type Answer, type HostileApp } from './hostile-app.js';
import type { DocumentKind } from './hostile-documents.js';

export const MIB = 1024 * 1024;

export interface Route {
  url: string;
  kind: DocumentKind;
  /** The simulator path of the route's own document (the patient document, read first, stays healthy). */
  document: string;
  shape: 1 | 2;
}

export const ROUTES: readonly Route[] = [
  { url: '/patients/journalnotes/', kind: 'journalnotes', document: '/journalnotes', shape: 1 },
  { url: '/patients/contacts/', kind: 'contacts', document: '/contacts', shape: 2 },
];

const MESSAGES: Record<number, string> = {
  502: "The EHR answered with an error, or with data this service cannot show exactly as written, so nothing is shown. If it is the same later, tell the region's support, giving the X-Request-Id of this answer.",
  504: 'The EHR did not answer in time. Try again in a few minutes.',
};

/** Upstream words that must never reach a caller: file contents, operator text, HTML, entity text, identity numbers. */
export const UPSTREAM_TEXT = /passwd|root:|\/bin\/|canary|NullPointer|Internt|Fault|<html|<!DOCTYPE|Gateway|nginx|lol|polluted|isAdmin|(?<!\d)\d{12}(?!\d)|\d{8}-\d{4}|\d{6}-\d{4}/i;

/** Status, body shape and message (docs/contract.md#errors), the deadline, and nothing of upstream's text. */
export function expectRefusal(route: Route, expected: 502 | 504, answer: Answer, label: string, deadlineMs = EHR_TIMEOUT_MS): void {
  const where = `${label} on ${route.url}`;
  expect(answer.status, `${where}: status (body ${answer.body.slice(0, 200)})`).toBe(expected);
  expectDeadlineKept(answer.ms, deadlineMs, where);
  expect(answer.body, `${where}: no upstream text or identity number`).not.toMatch(UPSTREAM_TEXT);
  expect(String(answer.headers['content-type']), where).toMatch(/^application\/json/);
  const json = JSON.parse(answer.body) as Record<string, unknown>;
  if (route.shape === 1) {
    expect(json, where).toEqual({ statusCode: expected, message: MESSAGES[expected] });
  } else {
    expect(json, where).toEqual({ error: MESSAGES[expected], path: route.url, status: expected, timestamp: expect.any(Number) });
    expect(Math.abs(Date.now() - (json.timestamp as number)), `${where}: timestamp is now, in epoch ms`).toBeLessThan(60_000);
  }
}

/** Exactly one audit record for the request, saying it failed with the status the caller got. */
export async function expectAudited(app: HostileApp, answer: Answer): Promise<void> {
  const records = await app.auditRecords(answer.requestId);
  expect(records.map((r) => [r.status, r.outcome]), `audit of ${answer.requestId}`)
    .toEqual([[answer.status, answer.status >= 500 ? 'failed' : 'allowed']]);
}

/** The app still serves the route normally. */
export async function expectHealthy(app: HostileApp, route: Route): Promise<void> {
  const answer = await app.get(route.url);
  expect([route.url, answer.status], `a normal request after the hostile ones (body ${answer.body.slice(0, 200)})`).toEqual([route.url, 200]);
  expect(Array.isArray(JSON.parse(answer.body))).toBe(true);
}

const PROTOTYPES: ReadonlyArray<[string, object]> = [
  ['Object.prototype', Object.prototype], ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype], ['String.prototype', String.prototype],
];

/** Own property names of the built-in prototypes, to compare before and after. */
export function prototypeSnapshot(): Record<string, string[]> {
  return Object.fromEntries(PROTOTYPES.map(([name, proto]) => [name, Reflect.ownKeys(proto).map(String).sort()]));
}

export function expectNoPollution(before: Record<string, string[]>): void {
  expect(prototypeSnapshot()).toEqual(before);
  const probe = {} as Record<string, unknown>;
  expect([probe.polluted, probe.isAdmin]).toEqual([undefined, undefined]);
}

/** A full collection (twice, so weak and finalised objects go too). vitest's workers lack --expose-gc; V8 lets a flag be set late. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
}

export interface MemoryGrowth {
  heapUsed: number;
  external: number;
  rss: number;
  /** Highest RSS seen while the loop ran, over the RSS before it. */
  peakRss: number;
}

/** Runs `loop`, sampling RSS; the growth of each measure after a full collection. */
export async function measureGrowth(loop: () => Promise<void>): Promise<MemoryGrowth> {
  collectGarbage();
  const before = process.memoryUsage();
  let peak = before.rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await loop();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  // Let sockets closed by the loop finish closing before the heap is weighed.
  await new Promise((resolve) => setTimeout(resolve, 50));
  collectGarbage();
  const after = process.memoryUsage();
  return {
    heapUsed: after.heapUsed - before.heapUsed,
    // Buffers (ArrayBuffers) are part of `external`.
    external: after.external - before.external,
    rss: after.rss - before.rss,
    peakRss: peak - before.rss,
  };
}

export const inMib = (growth: MemoryGrowth): Record<keyof MemoryGrowth, number> =>
  Object.fromEntries(Object.entries(growth).map(([k, v]) => [k, Math.round((v / MIB) * 10) / 10])) as Record<keyof MemoryGrowth, number>;
