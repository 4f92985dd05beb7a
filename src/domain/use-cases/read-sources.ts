import type { EhrReads, RecordReader } from '../../ports/ehr-records.port.js';
import { EhrError } from '../ehr-error.js';
import { READ_NAMES, type ReadName } from '../operations/table.js';

/** The reads of the operation table that `reads` has no source for: the composition root refuses to start with any. */
export const unservedReads = (reads: EhrReads): ReadName[] => READ_NAMES.filter((name) => reads[name] === undefined);

/** The source of one read; the composition root has made sure there is one. */
export function readerOf<R extends ReadName>(reads: EhrReads, read: R): RecordReader<R> {
  const reader = reads[read] as RecordReader<R> | undefined;
  if (reader === undefined) throw new EhrError('unavailable', `the EHR serves no ${read}`);
  return reader;
}

/** `reads` with each reader wrapped (timed, traced), the same reads served. */
export function eachRead(reads: EhrReads, wrap: <R extends ReadName>(read: R, reader: RecordReader<R>) => RecordReader<R>): EhrReads {
  const wrapped: Partial<Record<ReadName, unknown>> = {};
  for (const name of READ_NAMES) {
    const reader = reads[name];
    if (reader !== undefined) wrapped[name] = wrap(name, reader as RecordReader<typeof name>);
  }
  return wrapped as EhrReads;
}
