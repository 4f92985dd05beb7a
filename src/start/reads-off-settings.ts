/**
 * READS_OFF (docs/operations.md#turning-a-read-off): the reads a region turns off, by their operation
 * names as the OpenAPI document's operationIds and the access log name them. Read once at start: an
 * unknown name stops the start naming it, so a typo never leaves a read on that the region meant off.
 */
import { READ_NAMES, type ReadName } from '../domain/operations/table.js';
import { ALWAYS_ON } from '../domain/read-availability/reads-off.js';

export interface ReadsOffSettings {
  /** The reads turned off; none by default. */
  readsOff: ReadonlySet<ReadName>;
}

const KNOWN: ReadonlySet<string> = new Set(READ_NAMES);

export function readReadsOffSettings(env: Readonly<Record<string, string | undefined>>, fail: (message: string) => Error): ReadsOffSettings {
  const names = (env.READS_OFF ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
  for (const name of names) {
    // The name as written, cut and reduced to letters it may hold: it is the operator's text, echoed in a log.
    const shown = name.replace(/[^A-Za-z0-9-]/g, '?').slice(0, 64);
    if (!KNOWN.has(name)) throw fail(`READS_OFF names no read "${shown}": the reads are ${READ_NAMES.join(', ')}`);
    if (ALWAYS_ON.has(name as ReadName)) throw fail(`READS_OFF cannot turn ${shown} off: every read's access is decided by it`);
  }
  return { readsOff: new Set(names as ReadName[]) };
}
