import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { Relationship } from '../../domain/access/relationship.js';
import { EhrError } from '../../domain/ehr-error.js';
import { selectInRange, type ReadItem } from '../../domain/operations/table.js';
import { isBounded, type TimeRange } from '../../domain/time/time-range.js';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import type { ArrivalCheck } from '../../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import { DOCUMENT_OF, DOCUMENTS, documentReads, type XmlRead } from '../ehr-xml/documents.js';
import { MalformedDocumentError, mapDocument, mapDocumentInSlices, mapRelationships } from '../ehr-xml/index.js';
import type { DocumentStore } from './document-store.js';
import { DEFAULT_CACHE_BYTES, MappedDocuments, type Mapped } from '../mapped-documents/mapped-documents.js';
import type { WriteStateStore } from './write-state-store.js';

const PATIENT_ID = /^\d{12}$/;

const result = (resultCode: EhrWriteResult['resultCode'], reasonCode: string): EhrWriteResult => ({ resultCode, reasonCode });

export interface EmbeddedEhrOptions {
  /** The process's kept mappings (EHR_CACHE_BYTES), shared with every XML adapter; else one of its own of `cacheBytes`. */
  mappedDocuments?: MappedDocuments;
  /** Memory budget of a cache of its own in bytes (64 MiB); 0 turns it off. */
  cacheBytes?: number;
}

/**
 * An in-process EHR over a folder of upstream XML documents, translated by the same mapper as the
 * remote adapter. For demos, development and tests: it is not a system of record.
 *
 * A document is read and mapped once per version of its file (mapped-documents.ts): a request costs
 * a `stat` per file while nothing changes, and an edit shows on the next request. Large documents
 * are mapped in slices, so reading one never holds the event loop for long.
 */
export class EmbeddedEhr implements EhrRecords, DelegationRegistry {
  private readonly cache: MappedDocuments;
  /** This folder's name among the kept mappings, which other adapters of the process share. */
  private readonly source: string;
  readonly reads: EhrReads = documentReads((read, patientId, range) => this.read(read, patientId, range));

  constructor(
    private readonly documents: DocumentStore,
    private readonly writes: WriteStateStore,
    private readonly zone: string,
    private readonly onDropped: (reason: string) => void,
    options: EmbeddedEhrOptions = {},
  ) {
    this.cache = options.mappedDocuments ?? new MappedDocuments(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.source = `embedded\u0000${documents.root}`;
  }

  private async read<R extends XmlRead>(read: R, patientId: string, range: TimeRange): Promise<ReadItem<R>[]> {
    const mapped = await this.mapped(read, patientId);
    if (!isBounded(range)) return mapped.unbounded;
    return selectInRange(read, mapped.value, range, this.zone);
  }

  /** The patient's document answering `read`, mapped: from the cache while its file is unchanged. */
  private async mapped<R extends XmlRead>(read: R, patientId: string): Promise<Mapped<ReadItem<R>[]>> {
    const kind = DOCUMENT_OF[read];
    // An id that cannot name a folder names nobody.
    if (!PATIENT_ID.test(patientId)) throw new EhrError('patient-not-found', 'unknown patient');
    const known = this.documents.patientVersion(patientId);
    if (known === undefined) throw new EhrError('patient-not-found', 'unknown patient');
    const file = kind === 'patient' ? undefined : this.documents.patientFile(patientId, kind);
    const version = file === undefined ? known : this.documents.version(file);
    if (version === undefined) return this.empty(read, patientId);
    const path = file ?? this.documents.patientFile(patientId, 'patient');
    const found = await this.cache.get(`${this.source}\u0000${patientId}/${kind}`, version, async () => {
      const document = await this.documents.readVersioned(path);
      if (document === undefined) return undefined;
      return { version: document.version, mapped: await this.mapInSlices(read, document.bytes, patientId), chars: document.bytes.length };
    });
    if (found === undefined) return this.empty(read, patientId);
    for (const reason of found.dropped) this.onDropped(reason);
    return found;
  }

  /** A missing document: an empty answer. */
  private empty<R extends XmlRead>(read: R, patientId: string): Mapped<ReadItem<R>[]> {
    const value = this.map(read, `<${DOCUMENTS[DOCUMENT_OF[read]].reading.document.root}/>`, patientId);
    return { value, unbounded: selectInRange(read, value, {}, this.zone), dropped: [] };
  }

  private async mapInSlices<R extends XmlRead>(read: R, xml: Uint8Array, patientId: string): Promise<Mapped<ReadItem<R>[]>> {
    const dropped: string[] = [];
    try {
      const value = await mapDocumentInSlices(DOCUMENT_OF[read], xml, { zone: this.zone, expectedPatientId: patientId, onDropped: (r) => dropped.push(r) }) as ReadItem<R>[];
      return { value, unbounded: selectInRange(read, value, {}, this.zone), dropped };
    } catch (err) {
      throw this.translate(err);
    }
  }

  async registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    const booking = await this.bookingOf(patientId, contactId);
    if (booking === undefined) return result('ERROR', 'CONTACT_NOT_FOUND');
    const key = `${patientId}/${contactId}`;
    return this.writes.exclusive((state) => {
      if (Object.hasOwn(state.arrivals, key)) return { changed: false, result: result('INFO', 'ALREADY_ARRIVED') };
      // The document may have moved the booking since the service read the list (a demo's edit).
      if (!arrivable(Date.parse(booking.TypedStartDateTime))) return { changed: false, result: result('ERROR', 'OUTSIDE_ARRIVAL_WINDOW') };
      state.arrivals[key] = new Date().toISOString();
      return { changed: true, result: result('OK', 'ARRIVAL_REGISTERED') };
    });
  }

  async registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    if ((await this.bookingOf(patientId, contactId)) === undefined) return result('ERROR', 'CONTACT_NOT_FOUND');
    const key = `${patientId}/${contactId}`;
    return this.writes.exclusive((state) => {
      if (Object.hasOwn(state.payments, key)) return { changed: false, result: result('INFO', 'ALREADY_PAID') };
      if (!Object.hasOwn(state.arrivals, key)) return { changed: false, result: result('ERROR', 'NOT_PAYABLE') };
      state.payments[key] = { paymentType, at: new Date().toISOString() };
      return { changed: true, result: result('OK', 'PAYMENT_REGISTERED') };
    });
  }

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    const file = this.documents.relationshipsFile(actorId);
    const version = this.documents.version(file);
    if (version === undefined) return [];
    const found = await this.cache.get(`${this.source}\u0000relationships/${actorId}`, version, async () => {
      const read = await this.documents.readVersioned(file);
      if (read === undefined) return undefined;
      try {
        const value = mapRelationships(read.bytes).relationships;
        return { version: read.version, mapped: { value, unbounded: value, dropped: [] }, chars: read.bytes.length };
      } catch (err) {
        throw this.translate(err);
      }
    });
    return found?.value ?? [];
  }

  /** Each call reads the patient's own documents by number: there is no lookup a request could see answered twice. */
  forRequest(): EhrCalls {
    return this;
  }

  ping(): Promise<boolean> {
    return this.documents.reachable();
  }

  private async bookingOf(patientId: string, contactId: string) {
    const bookings = await this.read('getAppointments', patientId, {});
    return bookings.flatMap((r) => r.Booking).find((b) => b.ContactId === contactId);
  }

  private map<R extends XmlRead>(read: R, xml: string, patientId: string): ReadItem<R>[] {
    try {
      return mapDocument(DOCUMENT_OF[read], xml, { zone: this.zone, expectedPatientId: patientId, onDropped: this.onDropped }) as ReadItem<R>[];
    } catch (err) {
      throw this.translate(err);
    }
  }

  private translate(err: unknown): unknown {
    return err instanceof MalformedDocumentError ? new EhrError('bad-response', 'malformed document in EHR data') : err;
  }
}
