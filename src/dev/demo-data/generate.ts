import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DOCUMENT_OF, DOCUMENTS, isXmlRead } from '../../adapters/ehr-xml/documents.js';
import { demoClock, type DemoClock } from './clock.js';
import { demoDataProblems } from './consistency.js';
import { demoFhirBundle } from './fhir/bundle.js';
import { DEMO_PEOPLE } from './people.js';
import { readDemos } from './read-demos.js';
import { relationshipsDocument } from './relationships.js';

export { DEMO_PEOPLE, DEMO_ACTOR_ID, UNKNOWN_PATIENT_ID, type DemoPerson } from './people.js';

/**
 * Writes the embedded EHR's demo data set (docs/upstream-ehr.md#6-the-embedded-ehrs-folder layout) for the day `now` falls on in `zone`.
 * The same people are written as a FHIR R4 transaction Bundle too (FHIR_BUNDLE_FILE), from the same
 * description, so the two forms cannot drift.
 * The set is written to a sibling folder and renamed into place, so a reader sees the old set or
 * the new one, never half of one.
 */

/**
 * The demo document of each document the legacy EHR has (src/adapters/ehr-xml/documents.ts), written
 * by the demo of the read it answers (src/dev/demo-data/read-demos.ts, which the typecheck holds to
 * the documents table).
 */
const WRITERS = readDemos().flatMap(([read, demo]) =>
  (isXmlRead(read) && demo?.xml !== undefined ? [[DOCUMENT_OF[read], demo.xml] as const] : []));

/** Where in the data set the FHIR form of the demo people is written. */
export const FHIR_BUNDLE_FILE = 'fhir/demo-bundle.json';

// Marks a folder as generated, so the generator never replaces a folder of real (or hand-made) documents.
const MARKER = '.synthetic-demo-data';

// Leftovers of an interrupted run are removed once they are this old (a live run takes well under a second).
const STALE_MS = 10 * 60_000;

async function writeDataSet(dir: string, clock: DemoClock): Promise<void> {
  await mkdir(path.join(dir, 'relationships'), { recursive: true });
  await writeFile(path.join(dir, MARKER), `Synthetic demo EHR data generated for ${clock.today}; replaced on every start.\n`);
  for (const person of DEMO_PEOPLE) {
    const folder = path.join(dir, 'patients', person.id);
    await mkdir(folder, { recursive: true });
    for (const [kind, build] of WRITERS) {
      await writeFile(path.join(folder, `${kind}.xml`), build(person, clock, DOCUMENTS[kind].namespace), 'utf8');
    }
    // Every demo person can sign in, so each gets a registry document, empty when they act for nobody.
    await writeFile(path.join(dir, 'relationships', `${person.id}.xml`), relationshipsDocument(person.id, clock), 'utf8');
  }
  // The same people as FHIR R4 resources (fhir/bundle.ts), for `npm run fhir-sim` or any FHIR server.
  await mkdir(path.join(dir, 'fhir'), { recursive: true });
  await writeFile(path.join(dir, FHIR_BUNDLE_FILE), `${JSON.stringify(demoFhirBundle(clock), null, 1)}\n`, 'utf8');
}

async function removeStaleSiblings(target: string): Promise<void> {
  const parent = path.dirname(target);
  const prefix = `${path.basename(target)}.`;
  for (const name of await readdir(parent)) {
    if (!name.startsWith(prefix) || !/\.(tmp|old)-[0-9a-f]+$/.test(name)) continue;
    const full = path.join(parent, name);
    const info = await stat(full).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > STALE_MS) await rm(full, { recursive: true, force: true });
  }
}

async function assertReplaceable(target: string): Promise<void> {
  const entries = await readdir(target).catch((err: unknown): string[] => {
    if (errorCode(err) === 'ENOENT') return [];
    throw err;
  });
  if (entries.length === 0 || entries.includes(MARKER)) return;
  // Sets written before the marker existed are recognised by the comment every generated document carries.
  const probe = await readFile(path.join(target, 'patients', DEMO_PEOPLE[0]?.id ?? '', 'patient.xml'), 'utf8')
    .catch(() => '');
  if (!probe.includes('(synthetic demo data, generated')) {
    throw new Error(`${target} holds data that was not generated here; refusing to replace it`);
  }
}

function errorCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

async function swapIntoPlace(fresh: string, target: string): Promise<void> {
  const old = `${target}.old-${randomBytes(6).toString('hex')}`;
  // Two starts may race; a few attempts let the later one win instead of failing.
  for (let attempt = 0; attempt < 5; attempt++) {
    let moved = false;
    try {
      await rename(target, old);
      moved = true;
    } catch (err) {
      if (errorCode(err) !== 'ENOENT') throw err;
    }
    try {
      await rename(fresh, target);
      if (moved) await rm(old, { recursive: true, force: true });
      return;
    } catch (err) {
      if (moved) await rename(old, target).catch(() => undefined);
      if (!['ENOTEMPTY', 'EEXIST'].includes(errorCode(err) ?? '')) throw err;
    }
  }
  throw new Error('could not move the demo data set into place');
}

export async function generateDemoData(targetDir: string, options: { now: number; zone: string }): Promise<void> {
  // A data set whose notes contradict its records, or whose lab tests have no trend, is never written (issue 47 item 9).
  const problems = demoDataProblems();
  if (problems.length > 0) throw new Error(`the demo data disagrees with itself:\n${problems.join('\n')}`);
  const clock = demoClock(options.now, options.zone);
  const target = path.resolve(targetDir);
  await mkdir(path.dirname(target), { recursive: true });
  await assertReplaceable(target);
  await removeStaleSiblings(target);
  const fresh = `${target}.tmp-${randomBytes(6).toString('hex')}`;
  try {
    await writeDataSet(fresh, clock);
    await swapIntoPlace(fresh, target);
  } catch (err) {
    await rm(fresh, { recursive: true, force: true });
    throw err;
  }
}
