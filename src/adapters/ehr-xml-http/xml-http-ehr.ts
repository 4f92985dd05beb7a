/**
 * The remote legacy EHR (`EHR_ADAPTER=xml-http`): its HTTP interface
 * (docs/upstream-ehr.md#2-requests-and-answers) over the shared EHR transport (src/adapters/ehr-http:
 * pool, deadline, one retry of a read, breaker, TLS), translated by the same XML reader as the
 * embedded EHR. Which answer means what is this file's; how it travels is the transport's. A document
 * that came with a validator is kept, mapped, and asked about again with a conditional GET
 * (kept-answers.ts, docs/upstream-ehr.md#7-conditional-requests).
 */
import type { Relationship } from '../../domain/access/relationship.js';
import { EhrError } from '../../domain/ehr-error.js';
import { selectInRange, type ReadItem } from '../../domain/operations/table.js';
import type { TimeRange } from '../../domain/time/time-range.js';
import { PAYMENT_TYPES, type PaymentType } from '../../domain/writes/payment-types.js';
import type { ArrivalCheck } from '../../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../ports/ehr-records.port.js';
import type { IncomingHttpHeaders } from 'node:http';
import { AnswerFaultError } from '../ehr-http/answer-fault.js';
import { deadlinePassed, type UpstreamAnswer, type UpstreamRequest } from '../ehr-http/exchange.js';
import { EhrHttpTransport, type EhrTls } from '../ehr-http/transport.js';
import { DOCUMENT_OF, documentReads, type DocumentKind, type XmlRead } from '../ehr-xml/documents.js';
import { DEFAULT_CACHE_BYTES, MappedDocuments } from '../mapped-documents/mapped-documents.js';
import { mapDocumentInSlices, mapRelationships, mapResultRecord } from '../ehr-xml/index.js';
import { bodyLimitFor, documentOf, readable } from './answer.js';
import { answerMemoryOf, type DocumentsInFlight, SMALL_DOCUMENT_BYTES } from './documents-in-flight.js';
import type { Place } from './fetch-room.js';
import { KeptAnswers, notModifiedUnasked, type KeptAnswer } from './kept-answers.js';
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

/** One read's document, as asked for: what it answers, whose it is, the request's path and its key among the kept answers. */
interface Asked<R extends XmlRead> {
  read: R;
  kind: DocumentKind;
  patientId: string;
  path: string;
  range: TimeRange;
  key: string;
  place: Place;
}

export class XmlHttpEhr implements EhrRecords, DelegationRegistry {
  private readonly transport: EhrHttpTransport;
  /** Large documents' bytes, counted until their answers are serialised (documents-in-flight.ts). */
  readonly answerMemory: DocumentsInFlight;
  readonly reads: EhrReads = documentReads((read, patientId, range) => this.read(read, patientId, range));
  /** Answers kept under the EHR's validators, asked about again with conditional GETs (kept-answers.ts). */
  private readonly kept: KeptAnswers;

  constructor(private readonly options: XmlHttpEhrOptions) {
    this.transport = new EhrHttpTransport({ ...options, media: XML });
    const mappedDocuments = options.mappedDocuments ?? new MappedDocuments(DEFAULT_CACHE_BYTES);
    const source = `xml-http ${new URL(options.baseUrl).origin}${this.transport.prefix}`;
    this.kept = new KeptAnswers(mappedDocuments, source, options.onDropped, options.onConditional ?? (() => undefined));
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
      const started = performance.now();
      const key = this.kept.keyOf(patientId, kind, path, range);
      const asked: Asked<R> = { read, kind, patientId, path, range, key, place };
      const first = await this.document(asked, this.kept.validatorOf(key), timeoutMs);
      // A 304 about no answer kept now (kept-answers.ts): asked again, unconditionally, in what is left of the one deadline.
      const left = (): number => Math.floor((timeoutMs ?? this.options.timeoutMs) - (performance.now() - started));
      const answer = first ?? await this.document(asked, undefined, left());
      if (answer === undefined) throw notModifiedUnasked();
      return answer.records;
    } finally {
      place.leave();
    }
  }

  /**
   * One GET of a document, conditional on `validator` when one is kept: its records from a 304 that
   * confirms the kept answer, or from the 200's document, mapped and selected (and kept when it has a
   * validator); undefined for a 304 that confirms nothing kept now.
   */
  private async document<R extends XmlRead>(asked: Asked<R>, validator: string | undefined, timeoutMs: number | undefined): Promise<KeptAnswer<ReadItem<R>[]> | undefined> {
    if (timeoutMs !== undefined && timeoutMs <= 0) throw deadlinePassed();
    const headers = this.kept.headersOf(validator);
    const request: UpstreamRequest = {
      method: 'GET', path: asked.path, retryOnConnectionLoss: true, ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(headers === undefined ? {} : { headers }),
    };
    return this.transport.call(request, async (answer) => {
      if (answer.status === 304) return this.kept.notModified<ReadItem<R>[]>(asked.key, answer.headers, validator);
      if (answer.status === 200) this.kept.replaced(asked.key, validator, answer.headers);
      return readable(() => this.mapped(asked, documentOf(answer, true), answer.headers));
    }, bodyLimitFor);
  }

  /** A 200's document of `asked`, mapped and selected, kept when its answer has a validator. */
  private async mapped<R extends XmlRead>(asked: Asked<R>, bytes: Buffer, headers: IncomingHttpHeaders): Promise<KeptAnswer<ReadItem<R>[]>> {
    const dropped: string[] = [];
    const onDropped = (reason: string): void => {
      dropped.push(reason);
      this.options.onDropped(reason);
    };
    // In slices, and from the bytes: a megabyte of journal must neither hold the event loop while
    // it is read nor become one large string (ehr-xml/document-pieces.ts); and only so many
    // megabytes at once (documents-in-flight.ts).
    const mapped = await this.answerMemory.run(bytes.length, () => mapDocumentInSlices(asked.kind, bytes, {
      zone: this.options.zone, expectedPatientId: asked.patientId, onDropped,
    }), asked.place) as ReadItem<R>[];
    // The last slice of a large document ends with the whole tree built and checked: selecting
    // and sorting thousands of items gets a turn of the event loop of its own (issue 20 item 6).
    if (bytes.length > SMALL_DOCUMENT_BYTES) await nextTurn();
    const records = selectInRange(asked.read, mapped, asked.range, this.options.zone);
    return this.kept.keep(asked.key, headers, { records, dropped }, bytes.length);
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

  async registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    if (!isPersonId(patientId)) throw NOT_FOUND();
    // An id that cannot be a booking is answered as the EHR answers an unknown one, without asking it.
    if (!isContactId(contactId)) return { resultCode: 'ERROR', reasonCode: 'CONTACT_NOT_FOUND' };
    // `arrivable` is not asked: the legacy EHR is sent the booking's id alone and writes what it holds, so the
    // window stands as the service checked it from the bookings list just before (docs/upstream-ehr.md#2-requests-and-answers).
    void arrivable;
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
    return this.transport.call(request, (answer: UpstreamAnswer) => readable(() => interpret(documentOf(answer, patientPath))), bodyLimitFor);
  }
}

function writeResult(document: Buffer): EhrWriteResult {
  const { resultCode, reasonCode } = mapResultRecord(document);
  return { resultCode, reasonCode };
}
