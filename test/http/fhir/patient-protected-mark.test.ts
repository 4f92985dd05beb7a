/**
 * The FHIR Patient says a person is a protected identity (meta.security v3-Confidentiality `R`,
 * docs/upstream-fhir.md "Protected identity") wherever the EHR marks it: in the patient document or in
 * any extract of its v2 mirror, as the access decision reads it (docs/contract.md#token-kinds, either
 * marks it). A second instance reading this API as its EHR takes protection from that label alone.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, matchesOf, NOW, PERSONNUMMER, pid, smartToken, TOLVAN, type Resource } from './fhir-calls.js';

const CONFIDENTIALITY = 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality';

/** Replaces `from` by `to` in one of Tolvan's documents, exactly `times` times. */
async function edit(ehrDir: string, document: string, from: string, to: string, times: number): Promise<void> {
  const file = path.join(ehrDir, 'patients', TOLVAN, `${document}.xml`);
  const text = await readFile(file, 'utf8');
  expect(text.split(from)).toHaveLength(times + 1);
  await writeFile(file, text.replaceAll(from, to));
}

const UNMARKED_V2 = '<patientProtectedId>false</patientProtectedId>';
/** His two v2 extracts, the care system's and then the dental system's: only the second marked. */
async function markedInSecondExtract(ehrDir: string): Promise<void> {
  const file = path.join(ehrDir, 'patients', TOLVAN, 'patient-v2.xml');
  const text = await readFile(file, 'utf8');
  const second = text.lastIndexOf(UNMARKED_V2);
  expect(text.indexOf(UNMARKED_V2)).toBeLessThan(second);
  await writeFile(file, `${text.slice(0, second)}<patientProtectedId>true</patientProtectedId>${text.slice(second + UNMARKED_V2.length)}`);
}

const MARKINGS: readonly [string, ((ehrDir: string) => Promise<void>) | undefined, boolean][] = [
  ['marked nowhere', undefined, false],
  // Hostile review helper-205, F2: the Patient is written from the v2 mirror's first extract, whose mark
  // alone it carried. Failed before: no `R` in either case below.
  ['marked in the patient document only', (dir) => edit(dir, 'patient', '<PatientProtectedId>false</PatientProtectedId>', '<PatientProtectedId>true</PatientProtectedId>', 2), true],
  ['marked in the v2 mirror\'s second extract only', markedInSecondExtract, true],
];

const labels = (patient: Resource | undefined): unknown => (patient?.meta as { security?: { system: string; code: string }[] } | undefined)?.security
  ?.filter((s) => s.system === CONFIDENTIALITY).map((s) => s.code) ?? [];

describe.each(MARKINGS)('the FHIR Patient of a person %s', (_, editEhr, marked) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, ...(editEhr === undefined ? {} : { editEhr }) });
  }, 60_000);
  afterAll(async () => t.close());

  it(marked ? 'is labelled R for every reader and every way it is asked for' : 'carries no R', async () => {
    const expected = marked ? ['R'] : [];
    const own = await smartToken(t, TOLVAN, 'patient/*.rs');
    const client = await t.clientToken({ scope: 'system/*.read' });
    const asked: [string, Resource | undefined][] = [
      ['own read', JSON.parse((await get(t, `/fhir/Patient/${pid(TOLVAN)}`, own)).body) as Resource],
      ['own search', matchesOf(bundleOf(await get(t, '/fhir/Patient', own)))[0]],
      ['client search', matchesOf(bundleOf(await get(t, `/fhir/Patient?identifier=${PERSONNUMMER}|${TOLVAN}`, client)))[0]],
      ['client read', JSON.parse((await get(t, `/fhir/Patient/${pid(TOLVAN)}?patient=${pid(TOLVAN)}`, client)).body) as Resource],
    ];
    for (const [how, patient] of asked) expect([how, patient?.resourceType, labels(patient)]).toEqual([how, 'Patient', expected]);
  });
});
