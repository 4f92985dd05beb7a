/**
 * The remote legacy EHR (`EHR_ADAPTER=xml-http`): its HTTP interface
 * (docs/upstream-ehr.md#2-requests-and-answers) over the shared EHR transport (src/adapters/ehr-http:
 * pool, deadline, one retry of a read, breaker, TLS), translated by the same XML reader as the
 * embedded EHR. Which answer means what is this file's; how it travels is the transport's.
 */
import type { Relationship } from '../../domain/access/relationship.js';
import { EhrError } from '../../domain/ehr-error.js';
import { selectInRange, type ReadItem } from '../../domain/operations/table.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import { PAYMENT_TYPES, type PaymentType } from '../../domain/writes/payment-types.js';
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import { AnswerFaultError } from '../ehr-http/answer-fault.js';
import { deadlinePassed, type UpstreamAnswer, type UpstreamRequest } from '../ehr-http/exchange.js';
import { EhrHttpTransport, type EhrTls } from '../ehr-http/transport.js';
import { DOCUMENT_OF, documentReads, type XmlRead } from '../ehr-xml/documents.js';
import { MalformedDocumentError, mapDocumentInSlices, mapRelationships, mapResultRecord } from '../ehr-xml/index.js';
import { bodyLimitFor, documentOf } from './answer.js';
import { answerMemoryOf, type DocumentsInFlight, SMALL_DOCUMENT_BYTES } from './documents-in-flight.js';
import { XML } from './media.js';
import type { XmlHttpEhrOptions } from './options.js';
import { answeredAsEhr } from './ping.js';
import { isContactId, isPersonId, readPath, relationshipsPath, writePath } from './paths.js';

const NOT_FOUND = (): EhrError => new EhrError('patient-not-found', 'unknown patient');
const KNOWN_PAYMENT_TYPES: ReadonlySet<string> = new Set<PaymentType>(PAYMENT_TYPES);
// A well-formed id nobody has: the EHR answers it with an empty registry or a Fault, never with patient data.
const PING_ACTOR = '000000000000';

interface Call extends UpstreamRequest {
  patientPath: boolean;
}

export class XmlHttpEhr implements EhrRecords, DelegationRegistry {
  private readonly transport: EhrHttpTransport;
  /** Large documents' bytes, counted until their answers are serialised (documents-in-flight.ts). */
  readonly answerMemory: DocumentsInFlight;
  readonly reads: EhrReads = documentReads((read, patientId, range) => this.read(read, patientId, range));

  constructor(private readonly options: XmlHttpEhrOptions) {
    this.transport = new EhrHttpTransport({ ...options, media: XML });
    // A turn or room waited for longer than a call may take is answered as that call's timeout would be.
    this.answerMemory = answerMemoryOf({ ...options, tooLong: deadlinePassed });
  }

  private async read<R extends XmlRead>(read: R, patientId: string, range: TimeRange): Promise<ReadItem<R>[]> {
    if (!isPersonId(patientId)) throw NOT_FOUND();
    const kind = DOCUMENT_OF[read];
    const path = readPath(kind, patientId, range, this.options.zone);
    // Room for the document before it is asked for (fetch-room.ts).
    const place = await this.answerMemory.asking(read, patientId);
    try {
      // A wait for its turn (record-lanes.ts) or room comes out of the call's deadline; a call that never waited has all of it.
      const waited = this.answerMemory.waited();
      const timeoutMs = waited === undefined ? undefined : Math.floor(this.options.timeoutMs - waited);
      if (timeoutMs !== undefined && timeoutMs <= 0) throw deadlinePassed();
      const call: Call = { method: 'GET', path, retryOnConnectionLoss: true, patientPath: true, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
      return await this.call(call, async (bytes) => {
        // In slices, and from the bytes: a megabyte of journal must neither hold the event loop while
        // it is read nor become one large string (ehr-xml/document-pieces.ts); and only so many
        // megabytes at once (documents-in-flight.ts).
        const mapped = await this.answerMemory.run(bytes.length, () => mapDocumentInSlices(kind, bytes, {
          zone: this.options.zone, expectedPatientId: patientId, onDropped: this.options.onDropped,
        }), place) as ReadItem<R>[];
        // The last slice of a large document ends with the whole tree built and checked: selecting
        // and sorting thousands of items gets a turn of the event loop of its own (issue 20 item 6).
        if (bytes.length > SMALL_DOCUMENT_BYTES) await nextTurn();
        return selectInRange(read, mapped, range, this.options.zone);
      });
    } finally {
      place.leave();
    }
  }

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    if (!isPersonId(actorId)) throw new RangeError('actor id must be 12 digits');
    const call: Call = { method: 'GET', path: relationshipsPath(actorId), retryOnConnectionLoss: true, patientPath: false };
    return this.call(call, (bytes) => {
      const { actor, relationships } = mapRelationships(bytes);
      if (actor !== actorId) throw new AnswerFaultError('EHR answered the relationships of another actor');
      return relationships;
    });
  }

  async registerArrival(patientId: string, contactId: string): Promise<EhrWriteResult> {
    if (!isPersonId(patientId)) throw NOT_FOUND();
    // An id that cannot be a booking is answered as the EHR answers an unknown one, without asking it.
    if (!isContactId(contactId)) return { resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' };
    const path = writePath(patientId, contactId, 'arrival');
    return this.call({ method: 'PUT', path, retryOnConnectionLoss: false, patientPath: true }, writeResult);
  }

  async registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    if (!isPersonId(patientId)) throw NOT_FOUND();
    if (!KNOWN_PAYMENT_TYPES.has(paymentType)) throw new RangeError(`paymentType must be one of ${PAYMENT_TYPES.join(', ')}`);
    if (!isContactId(contactId)) return { resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' };
    const body = `<Payment xmlns="urn:example:ehr:payment:1"><Status>PAID</Status><PaymentType>${paymentType}</PaymentType></Payment>`;
    const path = writePath(patientId, contactId, 'payment');
    return this.call({ method: 'POST', path, body, retryOnConnectionLoss: false, patientPath: true }, writeResult);
  }

  /** Each call asks for the patient's own documents by number, and each document is checked to name that patient: there is no lookup a request could see answered twice. */
  forRequest(): EhrCalls {
    return this;
  }

  /** Bypasses the breaker both ways, so readiness shows the EHR's real state. */
  ping(): Promise<boolean> {
    return this.transport.probe(relationshipsPath(PING_ACTOR), answeredAsEhr);
  }

  /** A rotated client certificate (or CA) for new connections; files that make no usable pair throw, and the old one stays. */
  useTls(tls: EhrTls): void {
    this.transport.useTls(tls);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /** One call, its 200 document read by `interpret`; a malformed document is this answer's fault alone. */
  private call<T>(call: Call, interpret: (document: Buffer) => T | Promise<T>): Promise<T> {
    const { patientPath, ...request } = call;
    return this.transport.call(request, async (answer: UpstreamAnswer) => {
      const document = documentOf(answer, patientPath);
      try {
        return await interpret(document);
      } catch (err) {
        if (err instanceof MalformedDocumentError) throw untrusted(err);
        throw err;
      }
    }, bodyLimitFor);
  }
}

/** The mapper's reason is fixed text, but only the distinction a human must act on is passed on (threat 29 of docs/threat-model.md#the-upstream-ehr-api10). */
function untrusted(err: MalformedDocumentError): EhrError {
  return /another patient/.test(err.message)
    ? new AnswerFaultError('EHR answered a record of another patient')
    : new AnswerFaultError('EHR document is malformed');
}

function writeResult(document: Buffer): EhrWriteResult {
  const { resultCode, reasonCode } = mapResultRecord(document);
  return { resultCode, reasonCode };
}
