import type { EhrReads, RecordReader } from '../../ports/ehr-records.port.js';
import { READ_NAMES, type ReadName } from '../operations/table.js';

/** The source of one read. */
export const readerOf = <R extends ReadName>(reads: EhrReads, read: R): RecordReader<R> => reads[read] as RecordReader<R>;

/** `reads` with each reader wrapped (timed, traced), the same reads served. */
export function eachRead(reads: EhrReads, wrap: <R extends ReadName>(read: R, reader: RecordReader<R>) => RecordReader<R>): EhrReads {
  return Object.fromEntries(READ_NAMES.map((name) => [name, wrap(name, readerOf(reads, name))])) as EhrReads;
}
