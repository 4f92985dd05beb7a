/**
 * The bytes of the pages a FHIR read holds, counted against the answer-memory budget the XML
 * adapter's documents count against (docs/upstream-fhir.md#search-and-paging, "Bounded cost";
 * docs/architecture.md, the path of a read, step 6): the same budget, room and record lanes
 * (src/adapters/ehr-xml-http/documents-in-flight.ts), so large answers wait their turn instead of
 * filling memory. A proxy answering searches with ~10 MiB pages took one read from 166 to 862 MB and
 * three at once to 1.6 GB.
 *
 * A FHIR read is many requests (the lookup, each search and page, what is fetched by `_id`), and
 * all it parses stays in memory until its answer is written, so its pages are weighed together, as
 * one document grows: small pages are taken at once while they add up to a small document; the page
 * that makes them large waits, in hand, for the budget (and is then counted with them), and every
 * later page of a read that holds budget is let in at once. Before its first request a read takes
 * room for what its record's pages came to last time (fetch-room.ts), and gives it back once its
 * pages are let into the budget, or when it ends. Requests outside a read (the registry, the writes,
 * the CapabilityStatement) are not held: their answers are small and are not kept.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReadName } from '../../../domain/operations/table.js';
import { SMALL_DOCUMENT_BYTES, type DocumentsInFlight } from '../../ehr-xml-http/documents-in-flight.js';
import type { Place } from '../../ehr-xml-http/fetch-room.js';
import type { FhirAnswer } from '../client/fhir-exchange.js';

/** One read being made: whose, its room, and the bytes of its pages not yet counted. */
interface Reading {
  readonly read: ReadName;
  readonly patientId: string;
  /** Taken before the read's first request; given to the page that is first counted. */
  room: Promise<Place> | undefined;
  roomGiven: boolean;
  /** Bytes of the small pages taken so far, counted with the page that makes them large. */
  uncounted: number;
}

export class PageMemory {
  private readonly readings = new AsyncLocalStorage<Reading>();

  constructor(private readonly memory: DocumentsInFlight) {}

  /** `work`, one read of one patient, its pages held as the budget allows. */
  reading<T>(read: ReadName, patientId: string, work: () => Promise<T>): Promise<T> {
    const reading: Reading = { read, patientId, room: undefined, roomGiven: false, uncounted: 0 };
    return this.readings.run(reading, async () => {
      let answered = false;
      try {
        const result = await work();
        answered = true;
        return result;
      } finally {
        const place = await reading.room?.catch(() => undefined);
        // Pages that never made a large document: the record is expected to be that small next time.
        if (answered && !reading.roomGiven) place?.fetched(reading.uncounted);
        place?.leave();
      }
    });
  }

  /** One page: asked for once the read has room, and read by `parse` once its bytes fit the budget. */
  async page<T>(fetch: () => Promise<FhirAnswer>, parse: (answer: FhirAnswer) => Promise<T>): Promise<T> {
    const reading = this.readings.getStore();
    if (reading === undefined) return parse(await fetch());
    reading.room ??= this.memory.asking(reading.read, reading.patientId);
    const room = await reading.room;
    const answer = await fetch();
    const bytes = reading.uncounted + (answer.body?.length ?? 0);
    if (bytes <= SMALL_DOCUMENT_BYTES) {
      reading.uncounted = bytes;
      return parse(answer);
    }
    reading.uncounted = 0;
    const place = reading.roomGiven ? undefined : room;
    reading.roomGiven = true;
    return this.memory.run(bytes, () => parse(answer), place);
  }
}
