/**
 * Issue 56 item 4: the selection of kept (frozen) records is remembered, and every answer is the one
 * selecting anew gives, to the byte: for every read of every demo person, over ranges that take all,
 * some and none of the records. What is handed out cannot be changed by its caller.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyOf, READ_NAMES, selectInRange, type ReadName } from '../../../src/domain/operations/table.js';
import { boundsOf } from '../../../src/domain/read-policy/time-selection.js';
import { readerOf } from '../../../src/domain/use-cases/read-sources.js';
import type { TimeRange } from '../../../src/domain/time/time-range.js';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { embeddedBackend } from '../../support/test-app.js';

const ZONE = 'Europe/Stockholm';
const RANGES: readonly TimeRange[] = [{}, { from: '20200101000000' }, { to: '20250630235959' }, { from: '20250101000000', to: '20251231235959' }, { from: '20990101000000' }];

/** The records as selecting anew gives them: from a copy no one froze, so nothing is remembered. */
const fresh = (read: ReadName, records: readonly unknown[], range: TimeRange): string =>
  JSON.stringify(readPolicyOf(read).select(structuredClone([...records]) as never, boundsOf(range, ZONE), ZONE));

describe('remembered selection (issue 56 item 4)', () => {
  let backend: Awaited<ReturnType<typeof embeddedBackend>>;
  beforeAll(async () => { backend = await embeddedBackend(new FixedClock(Date.UTC(2026, 10, 26, 9))); });
  afterAll(async () => { await backend.close(); });

  it('answers every read of every demo person byte for byte as selecting anew, and the same array again', async () => {
    let remembered = 0;
    for (const { id: patient } of DEMO_PEOPLE) {
      for (const read of READ_NAMES) {
        if (read === 'getPatient' || read === 'getPatientV2') continue;
        // The embedded EHR's kept records, frozen as the kept mappings are.
        const kept = await readerOf(backend.ehr.reads, read)(patient, {}).catch(() => undefined);
        if (kept === undefined) continue;
        expect(Object.isFrozen(kept), `${read} of ${patient}`).toBe(true);
        for (const range of RANGES) {
          const first = selectInRange(read, kept as never, range, ZONE);
          expect(JSON.stringify(first), `${read} of ${patient} in ${JSON.stringify(range)}`).toBe(fresh(read, kept as never, range));
          expect(selectInRange(read, kept as never, range, ZONE)).toBe(first);
          remembered += 1;
        }
      }
    }
    expect(remembered).toBeGreaterThan(100);
  });

  it('hands out what no caller can change, and selects anew what is not frozen', async () => {
    const patient = DEMO_PEOPLE[0]?.id;
    const kept = await readerOf(backend.ehr.reads, 'getJournalNotes')(patient ?? '', {});
    const selected = selectInRange('getJournalNotes', kept, {}, ZONE);
    expect(selected.length).toBeGreaterThan(0);
    expect(() => { (selected as unknown[]).push(undefined); }).toThrow(TypeError);
    const [first] = selected;
    expect(() => { Object.assign(first ?? {}, { extra: 1 }); }).toThrow(TypeError);
    const open = [...kept];
    expect(selectInRange('getJournalNotes', open, {}, ZONE)).not.toBe(selectInRange('getJournalNotes', open, {}, ZONE));
  });
});
