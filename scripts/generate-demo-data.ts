/**
 * Writes the embedded EHR's demo data for today: `tsx scripts/generate-demo-data.ts [targetDir]`.
 * `npm start` does the same on every start; this is for looking at the files or pointing
 * EHR_DATA_DIR at a copy. Zone from EHR_TIMEZONE, as the service reads it.
 */
import { generateDemoData } from '../src/dev/demo-data/generate.js';
import { assertTimeZone } from '../src/domain/time/local-time.js';

const targetDir = process.argv[2] ?? '.data/demo-ehr';
const zone = process.env.EHR_TIMEZONE || 'Europe/Stockholm';

try {
  assertTimeZone(zone);
  await generateDemoData(targetDir, { now: Date.now(), zone });
  console.log(`Synthetic demo EHR data written to ${targetDir} (zone ${zone}).`);
} catch (err) {
  console.error(`Could not write demo data: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
