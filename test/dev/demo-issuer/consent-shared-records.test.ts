/**
 * A newcomer's walk-through (helper-105, 8): Märta shared her lab results and diagnoses with Tolvan, and
 * the consent page of Tolvan's next sign-in said his app would read Märta's journal notes and her access
 * log too ("Whose records: Tolvan Tolvansson and Märta Ström"), which her grant never opens
 * (docs/proxies.md#what-a-grant-opens). Each scope now names someone who shared part of their record only
 * where it opens something of what they shared, and says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrantTableState } from '../../../src/adapters/proxy-grants/grant-table.js';
import { HttpBrowser } from './http-browser.js';
import { authorizeUrl, launch, pkce, startDemoService, type DemoService } from './smart-flow.js';

const TOLVAN = '191212121212';
const MARTA = '198112189876';

let service: DemoService;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pdas-consent-shared-'));
  const at = Date.now() - 60_000;
  const grants: GrantTableState = {
    grants: [{
      id: 'c0ffee00000000000000000000000105', state: 'active', grantor: MARTA, grantee: TOLVAN, granteeName: 'Tolvan Tolvansson',
      categories: ['LabResult', 'Diagnosis'], validFromMs: at, createdMs: at, changedMs: at,
    }],
    events: [],
    seq: 0,
  };
  await writeFile(path.join(dataDir, 'proxy-grants.json'), JSON.stringify(grants), { mode: 0o600 });
  service = await startDemoService({ DATA_DIR: dataDir });
}, 60_000);
afterAll(async () => {
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the consent page names someone who shared part of their record only for what they shared (helper-105, 8)', () => {
  it('names Märta for her lab results and the whole record, with what was shared, and not for notes or her access log', async () => {
    const scope = 'openid fhirUser user/JournalNote.read user/LabResult.read user/AuditEvent.read user/AuditEvent.rs user/*.rs';
    const { pages } = await launch(new HttpBrowser(), service, authorizeUrl(service, pkce(), { scope }), { login: TOLVAN, pick: 'Tolvan' });
    const consent = pages.find((p) => p.body.includes('name="prompt" value="consent"'))?.body ?? '';
    const whose = (written: string): string | undefined =>
      new RegExp(`<span class="reach">Whose records: ([^<]*)</span><small class="scope"><code>${written.replace(/[.*/]/g, '\\$&')}</code>`).exec(consent)?.[1];
    expect(Object.fromEntries(scope.split(' ').slice(2).map((s) => [s, whose(s)]))).toEqual({
      'user/JournalNote.read': 'Tolvan Tolvansson',
      'user/LabResult.read': 'Tolvan Tolvansson and Märta Ström (what was shared with you)',
      'user/AuditEvent.read': 'Tolvan Tolvansson',
      'user/AuditEvent.rs': 'Tolvan Tolvansson',
      'user/*.rs': 'Tolvan Tolvansson and Märta Ström (what was shared with you)',
    });
  });
});
