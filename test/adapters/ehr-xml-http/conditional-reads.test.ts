/**
 * Issue 56 item 2: an unchanged document is neither transferred nor mapped again. Against the EHR
 * simulator (its validators on, and off), each read seen on the wire and each call of the mapper
 * counted: a second read sends a conditional GET and maps nothing; a changed document is read anew;
 * a document without validators is fetched in full every time; a kept answer evicted under a small
 * budget, even while its conditional GET is in flight, is fetched again and answered right.
 */
import { readDocument } from '../../support/document-reads.js';
import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as reader from '../../../src/adapters/ehr-xml/index.js';
import { startEhrSimulator, type EhrSimulator } from '../../../src/dev/ehr-simulator/index.js';
import { XmlHttpEhr } from '../../../src/adapters/ehr-xml-http/index.js';
import type { ConditionalAnswer } from '../../../src/adapters/ehr-xml-http/kept-answers.js';
import { COST_PER_CHAR, MappedDocuments, type DocumentOutcome } from '../../../src/adapters/mapped-documents/mapped-documents.js';
import { ADULT, ZONE, startSimulatedEhr, type SimulatedEhr } from './simulated-ehr.js';

// Every document the adapter maps goes through the reader's mapDocumentInSlices: counted here.
vi.mock('../../../src/adapters/ehr-xml/index.js', async (importActual) => {
  const actual = await importActual<typeof reader>();
  return { ...actual, mapDocumentInSlices: vi.fn(actual.mapDocumentInSlices) };
});
const mapperCalls = (): number => vi.mocked(reader.mapDocumentInSlices).mock.calls.length;

interface Seen { url: string; ifNoneMatch?: string; ifModifiedSince?: string }

describe('xml-http: conditional GETs of the documents it keeps', () => {
  let t: SimulatedEhr;
  let sim: EhrSimulator;
  const seen: Seen[] = [];
  const closers: Array<() => Promise<void>> = [];
  const file = (kind: string): string => path.join(t.dataDir, 'patients', ADULT, `${kind}.xml`);

  /** A simulator over the test's data folder that notes every request's preconditions. */
  async function simulator(validators = true): Promise<EhrSimulator> {
    const onRequest = (req: IncomingMessage): void => {
      const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);
      seen.push({ url: req.url ?? '', ifNoneMatch: one(req.headers['if-none-match']), ifModifiedSince: one(req.headers['if-modified-since']) });
    };
    const started = await startEhrSimulator({ dataDir: t.dataDir, stateFile: path.join(t.dir, `state-${closers.length}.json`), zone: ZONE, onRequest, validators });
    closers.push(() => started.close());
    return started;
  }

  function adapter(over: EhrSimulator, more: { budget?: number; told?: ConditionalAnswer[]; outcomes?: DocumentOutcome[] } = {}): XmlHttpEhr {
    const ehr = new XmlHttpEhr({
      baseUrl: over.url, timeoutMs: 5000, zone: ZONE, onDropped: () => undefined,
      mappedDocuments: new MappedDocuments(more.budget ?? 64 * 2 ** 20, (o) => more.outcomes?.push(o)),
      onConditional: (a) => more.told?.push(a),
    });
    closers.push(() => ehr.close());
    return ehr;
  }

  beforeAll(async () => {
    t = await startSimulatedEhr();
    // Files a minute old: a change written now falls in a later second, as Last-Modified counts.
    const past = new Date(Date.now() - 60_000);
    for (const kind of ['journalnotes', 'medications', 'contacts']) await utimes(file(kind), past, past);
    sim = await simulator();
  });
  afterEach(() => {
    seen.length = 0;
    vi.mocked(reader.mapDocumentInSlices).mockClear();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await t.close();
  });

  it('asks again with If-None-Match and the ETag it was sent, and maps nothing when the EHR answers 304', async () => {
    const told: ConditionalAnswer[] = [];
    const outcomes: DocumentOutcome[] = [];
    const ehr = adapter(sim, { told, outcomes });
    const first = await readDocument(ehr, 'journalnotes', ADULT, {});
    const second = await readDocument(ehr, 'journalnotes', ADULT, {});
    expect(second).toEqual(first);
    expect(second).toBe(first);
    expect(Object.isFrozen(second)).toBe(true);
    expect(mapperCalls()).toBe(1);
    expect(seen[0]?.ifNoneMatch).toBeUndefined();
    expect(seen[1]?.ifNoneMatch).toMatch(/^"[\x21\x23-\x7e]+"$/);
    expect([told, outcomes]).toEqual([['not-modified'], ['mapped', 'kept']]);
  });

  it('keeps each range apart: the same document asked with another from/to is its own request', async () => {
    const ehr = adapter(sim);
    const all = await readDocument(ehr, 'contacts', ADULT, {});
    const since = await readDocument(ehr, 'contacts', ADULT, { from: '20260101000000' });
    await readDocument(ehr, 'contacts', ADULT, { from: '20260101000000' });
    await readDocument(ehr, 'contacts', ADULT, {});
    expect(mapperCalls()).toBe(2);
    expect(seen.map((s) => [s.url.includes('from='), s.ifNoneMatch !== undefined])).toEqual([[false, false], [true, false], [true, true], [false, true]]);
    expect(since).not.toEqual(all);
  });

  it('reads a changed document anew on the next read', async () => {
    const ehr = adapter(sim);
    const before = await readDocument(ehr, 'medications', ADULT, {});
    const xml = await readFile(file('medications'), 'utf8');
    const name = /<CareProviderName>([^<]+)</.exec(xml)?.[1] ?? 'missing';
    await writeFile(file('medications'), xml.split(name).join('Ändrad Förskrivare'));
    const after = await readDocument(ehr, 'medications', ADULT, {});
    expect(JSON.stringify(after)).toContain('Ändrad Förskrivare');
    expect(after).not.toEqual(before);
    expect(mapperCalls()).toBe(2);
    expect(seen[1]?.ifNoneMatch).toBeDefined();
    expect(await readDocument(ehr, 'medications', ADULT, {})).toBe(after);
    expect(mapperCalls()).toBe(2);
  });

  it('fetches and maps in full every time from an EHR that sends no validators', async () => {
    const plain = await simulator(false);
    const outcomes: DocumentOutcome[] = [];
    const ehr = adapter(plain, { outcomes });
    const first = await readDocument(ehr, 'journalnotes', ADULT, {});
    const second = await readDocument(ehr, 'journalnotes', ADULT, {});
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second)).toBe(false);
    expect(mapperCalls()).toBe(2);
    expect(seen.map((s) => [s.ifNoneMatch, s.ifModifiedSince])).toEqual([[undefined, undefined], [undefined, undefined]]);
    expect(outcomes).toEqual(['mapped', 'mapped']);
  });

  it('fetches a document again, unconditionally, once a small budget has let it go', async () => {
    const sizes = await Promise.all(['journalnotes', 'medications'].map(async (kind) => (await stat(file(kind))).size));
    // Room for the larger of the two, not for both.
    const ehr = adapter(sim, { budget: Math.max(...sizes) * COST_PER_CHAR + 1024 });
    const journal = await readDocument(ehr, 'journalnotes', ADULT, {});
    await readDocument(ehr, 'medications', ADULT, {});
    const again = await readDocument(ehr, 'journalnotes', ADULT, {});
    expect(again).toEqual(journal);
    expect(mapperCalls()).toBe(3);
    expect(seen.map((s) => s.ifNoneMatch === undefined)).toEqual([true, true, true]);
  });

  it('asks again unconditionally when the 304 comes for an answer evicted while its GET was in flight', async () => {
    const sizes = await Promise.all(['journalnotes', 'medications'].map(async (kind) => (await stat(file(kind))).size));
    const told: ConditionalAnswer[] = [];
    const ehr = adapter(sim, { budget: Math.max(...sizes) * COST_PER_CHAR + 1024, told });
    const journal = await readDocument(ehr, 'journalnotes', ADULT, {});
    const release = sim.faults.hold({ path: '/journalnotes', times: 1 });
    const pending = readDocument(ehr, 'journalnotes', ADULT, {});
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    await readDocument(ehr, 'medications', ADULT, {});
    release();
    expect(await pending).toEqual(journal);
    expect(seen.map((s) => [s.url.split('/').pop(), s.ifNoneMatch === undefined])).toEqual([
      ['journalnotes', true], ['journalnotes', false], ['medications', true], ['journalnotes', true],
    ]);
    expect(told).toEqual(['refetched']);
    expect(mapperCalls()).toBe(3);
  });
});
