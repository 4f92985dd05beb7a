/**
 * Issue 56 item 4: the release policy's per-record checks remembered for kept records (whether a record
 * names a listed care unit, remembered-units.ts; a level's or keyword's normal form, active-rules.ts).
 * What a caller is given must be what the checks made anew give: every demo person's records of every
 * release-filtered read as the embedded EHR keeps them (frozen), released twice (the first remembers,
 * the second finds), against the same records copied (not frozen, so walked every time), under the
 * example policy (whose units and zones the demo data names) and one listing other units, for the
 * patient, a guardian and a client token.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';
import type { AccessBasis } from '../../../src/domain/access/relationship.js';
import { RELEASE_FILTERED_READS } from '../../../src/domain/operations/table.js';
import { normalised } from '../../../src/domain/release/active-rules.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import { releaseToCaller } from '../../../src/domain/use-cases/read-patient-data.js';
import type { EmbeddedEhr } from '../../../src/adapters/ehr-embedded/embedded-ehr.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { embeddedBackend } from '../../support/test-app.js';
import { REPOSITORY_ROOT } from '../../support/upstream-examples.js';

const NOW = Date.parse('2026-11-21T08:00:00Z');
const ZONE = 'Europe/Stockholm';

describe('release checks remembered for kept records', () => {
  let ehr: EmbeddedEhr;
  let close: () => Promise<void>;
  let example: ReleasePolicy;
  beforeAll(async () => {
    ({ ehr, close } = await embeddedBackend(new FixedClock(NOW)));
    example = JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'examples/release-policy.json'), 'utf8')) as ReleasePolicy;
  }, 60_000);
  afterAll(async () => close());

  it('give every demo person\'s reads exactly what the checks made anew give', async () => {
    const others: ReleasePolicy = {
      ...example, careUnits: { unitIds: [{ root: '1.2.752.129.2.1.4.1', extension: 'SE0000000000-NONE' }], accessZoneIds: [{ root: '1.2.752.99999.1.7', extension: '00000001' }] },
    };
    let frozen = 0;
    let withheld = 0;
    let compared = 0;
    for (const policy of [example, others]) {
      for (const person of DEMO_PEOPLE) {
        for (const read of RELEASE_FILTERED_READS) {
          const records = await (ehr.reads[read] as (p: string, r: object) => Promise<object[]>)(person.id, {});
          if (records.length > 0 && Object.isFrozen(records[0])) frozen++;
          for (const basis of ['self', 'guardian', 'client'] as AccessBasis[]) {
            const context = { basis, patientId: person.id, now: NOW, zone: ZONE };
            const anew = releaseToCaller(read, structuredClone(records) as never, policy, context);
            for (let round = 0; round < 2; round++) {
              const kept = releaseToCaller(read, records as never, policy, context);
              expect([person.id, read, basis, kept.withheld, JSON.stringify(kept.records)]).toEqual([person.id, read, basis, anew.withheld, JSON.stringify(anew.records)]);
              compared++;
            }
            withheld += anew.withheld;
          }
        }
      }
    }
    expect(compared).toBe(2 * DEMO_PEOPLE.length * RELEASE_FILTERED_READS.length * 3 * 2);
    expect(frozen).toBeGreaterThan(DEMO_PEOPLE.length);
    expect(withheld).toBeGreaterThan(0);
  }, 120_000);

  it('a care unit the policy lists withholds a kept record, found again', async () => {
    const notes = await ehr.reads.getJournalNotes('201701012393', {});
    const context = { basis: 'guardian' as AccessBasis, patientId: '201701012393', now: NOW, zone: ZONE };
    const unitsOnly: ReleasePolicy = { careUnits: { unitIds: [{ root: '1.2.752.129.2.1.4.1', extension: 'SE2321000016-BH01' }] } };
    const anew = releaseToCaller('getJournalNotes', structuredClone(notes), unitsOnly, context);
    expect(anew.withheld).toBeGreaterThan(0);
    for (let round = 0; round < 2; round++) expect(releaseToCaller('getJournalNotes', notes, unitsOnly, context)).toEqual(anew);
  });

  it('a text\'s normal form is the one made anew', () => {
    for (const text of ['Sekretess', ' sekretess ', 'KÄNSLIG UPPGIFT', 'Orosanma\u0308lan', 'İstanbul', '']) {
      for (let round = 0; round < 2; round++) expect(normalised(text)).toBe(text.normalize('NFC').trim().toLocaleLowerCase('sv-SE'));
    }
  });
});
