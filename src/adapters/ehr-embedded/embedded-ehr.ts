import type { DelegationRegistry, Relationship } from '../../ports/delegation-registry.port.js';
import {
  EhrError, type EhrRecords, type EhrWriteResult, type PaymentType, type ReadKind, type ReadResults, type TimeRange,
} from '../../ports/ehr-records.port.js';
import { selectInRange } from '../../domain/records/index.js';
import { MalformedDocumentError, mapDocument, mapRelationships } from '../ehr-xml/index.js';
import type { DocumentStore } from './document-store.js';
import type { WriteStateStore } from './write-state-store.js';

const EMPTY_ROOTS: Record<ReadKind, string> = {
  patient: 'PatientRecords', medications: 'PrescriptionRecords', journalnotes: 'JournalNoteRecords',
  bookings: 'BookedAppointmentsResults', videomeetings: 'VideoMeetings', contacts: 'CareContacts',
  attentionsignals: 'AttentionSignals',
};

const result = (resultCode: EhrWriteResult['resultCode'], reasonCode: string): EhrWriteResult => ({ resultCode, reasonCode });

/**
 * An in-process EHR over a folder of upstream XML documents, translated by the same mapper as the
 * remote adapter. For demos, development and tests: it is not a system of record.
 */
export class EmbeddedEhr implements EhrRecords, DelegationRegistry {
  constructor(
    private readonly documents: DocumentStore,
    private readonly writes: WriteStateStore,
    private readonly zone: string,
    private readonly onDropped: (reason: string) => void,
  ) {}

  async read<K extends ReadKind>(kind: K, patientId: string, range: TimeRange): Promise<ReadResults[K]> {
    if (!(await this.documents.patientExists(patientId))) throw new EhrError('patient-not-found', 'unknown patient');
    const xml = await this.documents.patientDocument(patientId, kind);
    const mapped = this.map(kind, xml ?? `<${EMPTY_ROOTS[kind]}/>`, patientId);
    return selectInRange(kind, mapped, range, this.zone);
  }

  async registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult> {
    if (!(await this.hasBooking(patientId, contactId))) return result('ERROR', 'CONTACT_NOT_FOUND');
    const key = `${patientId}/${contactId}`;
    return this.writes.exclusive((state) => {
      if (Object.hasOwn(state.arrivals, key)) return { changed: false, result: result('INFO', 'ALREADY_ARRIVED') };
      state.arrivals[key] = new Date().toISOString();
      return { changed: true, result: result('OK', 'ARRIVAL_REGISTERED') };
    });
  }

  async registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    if (!(await this.hasBooking(patientId, contactId))) return result('ERROR', 'CONTACT_NOT_FOUND');
    const key = `${patientId}/${contactId}`;
    return this.writes.exclusive((state) => {
      if (Object.hasOwn(state.payments, key)) return { changed: false, result: result('INFO', 'ALREADY_PAID') };
      if (!Object.hasOwn(state.arrivals, key)) return { changed: false, result: result('ERROR', 'NOT_PAYABLE') };
      state.payments[key] = { paymentType, at: new Date().toISOString() };
      return { changed: true, result: result('OK', 'PAYMENT_REGISTERED') };
    });
  }

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    const xml = await this.documents.relationshipsDocument(actorId);
    if (xml === undefined) return [];
    try {
      return mapRelationships(xml).relationships;
    } catch (err) {
      throw this.translate(err);
    }
  }

  ping(): Promise<boolean> {
    return this.documents.reachable();
  }

  private async hasBooking(patientId: string, contactId: string): Promise<boolean> {
    if (!(await this.documents.patientExists(patientId))) throw new EhrError('patient-not-found', 'unknown patient');
    const bookings = await this.read('bookings', patientId, {});
    return bookings.some((r) => (r.Booking ?? []).some((b) => b.ContactId === contactId));
  }

  private map<K extends ReadKind>(kind: K, xml: string, patientId: string): ReadResults[K] {
    try {
      return mapDocument(kind, xml, { zone: this.zone, expectedPatientId: patientId, onDropped: this.onDropped });
    } catch (err) {
      throw this.translate(err);
    }
  }

  private translate(err: unknown): unknown {
    return err instanceof MalformedDocumentError ? new EhrError('bad-response', 'malformed document in EHR data') : err;
  }
}
