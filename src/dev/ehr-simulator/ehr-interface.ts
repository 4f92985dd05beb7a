/**
 * The upstream HTTP interface of docs/upstream-ehr.md#2-requests-and-answers over an embedded EHR data folder (docs/upstream-ehr.md#6-the-embedded-ehrs-folder): reads serve
 * the documents, filtered by `from`/`to`; writes follow the embedded EHR's rules and state store.
 */
import type { EmbeddedEhr } from '../../adapters/ehr-embedded/embedded-ehr.js';
import type { DocumentStore } from '../../adapters/ehr-embedded/document-store.js';
import { EhrError } from '../../domain/ehr-error.js';
import { AT_ANY_TIME } from '../../domain/writes/arrival-window.js';
import { type DocumentKind } from '../../adapters/ehr-xml/documents.js';
import { type TimeRange } from '../../domain/time/time-range.js';
import { compactToEpochMs, isCompactDateTime } from '../../domain/time/local-time.js';
import { parsePayment } from './payment-body.js';
import { validated, type Conditions } from './conditional.js';
import { KeptDocuments } from './kept-documents.js';
import { filterByRange } from './range-filter.js';
import { DOCUMENT_KINDS } from '../../adapters/ehr-xml/documents.js';
import { emptyDocument, emptyRelationships, fault, resultRecord, type Answer } from './xml-answers.js';

export interface SimRequest {
  method: string;
  url: URL;
  contentType: string | undefined;
  body: string;
  /** A GET's If-None-Match and If-Modified-Since, as sent. */
  conditions: Conditions;
}

const ID = /^\d{12}$/;
const KINDS = new Set<string>(DOCUMENT_KINDS);

const badRequest = (what: string): Answer => fault(400, 'BAD_REQUEST', `Bad request: ${what}`);
const notFound = (): Answer => fault(404, 'NOT_FOUND', 'No such resource');
const notAllowed = (allow: string): Answer => ({ ...fault(405, 'METHOD_NOT_ALLOWED', 'Method not allowed'), headers: { allow } });
const unknownPatient = (id: string): Answer => fault(404, 'PATIENT_NOT_FOUND', `Patient ${id} finns inte i journalsystemet`);

function rangeOf(params: URLSearchParams, zone: string): TimeRange | string {
  const range: TimeRange = {};
  for (const name of ['from', 'to'] as const) {
    const values = params.getAll(name);
    if (values.length > 1) return `repeated ${name}`;
    const value = values[0];
    if (value === undefined) continue;
    if (!isCompactDateTime(value)) return `${name} must be a 14-digit local time`;
    range[name] = value;
  }
  if (range.from !== undefined && range.to !== undefined && compactToEpochMs(range.from, zone) > compactToEpochMs(range.to, zone)) {
    return 'from is after to';
  }
  return range;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export class EhrInterface {
  private readonly documents: KeptDocuments;

  constructor(
    private readonly store: DocumentStore,
    private readonly ehr: EmbeddedEhr,
    private readonly zone: string,
    /** Whether document answers carry an ETag and Last-Modified, and conditional GETs are answered 304 (an EHR without them: false). */
    private readonly validators = true,
  ) {
    this.documents = new KeptDocuments(store);
  }

  async answer(request: SimRequest): Promise<Answer> {
    const segments = request.url.pathname.split('/');
    // ['', 'ehr', 'v1', 'patients', id, ...] or ['', 'ehr', 'v1', 'relationships', actorId]
    if (segments.length < 5 || segments[0] !== '' || segments[1] !== 'ehr' || segments[2] !== 'v1') return notFound();
    const [, , , collection, id = '', ...rest] = segments;
    if (collection === 'relationships' && rest.length === 0) {
      return request.method === 'GET' ? this.relationships(id) : notAllowed('GET');
    }
    if (collection !== 'patients') return notFound();
    if (rest.length === 1 && KINDS.has(rest[0] ?? '')) {
      return request.method === 'GET' ? this.read(rest[0] as DocumentKind, id, request.url.searchParams, request.conditions) : notAllowed('GET');
    }
    if (rest.length === 3 && rest[0] === 'bookings' && (rest[2] === 'arrival' || rest[2] === 'payment')) {
      const method = rest[2] === 'arrival' ? 'PUT' : 'POST';
      if (request.method !== method) return notAllowed(method);
      return this.write(rest[2], id, rest[1] ?? '', request);
    }
    return ID.test(id) && !(await this.store.patientExists(id)) ? unknownPatient(id) : notFound();
  }

  private async read(kind: DocumentKind, id: string, params: URLSearchParams, conditions: Conditions): Promise<Answer> {
    if (!ID.test(id)) return badRequest('id must be 12 digits');
    const range = rangeOf(params, this.zone);
    if (typeof range === 'string') return badRequest(range);
    if (!(await this.store.patientExists(id))) return unknownPatient(id);
    const document = await this.documents.read(this.store.patientFile(id, kind));
    if (document === undefined) return this.withValidators({ status: 200, body: emptyDocument(kind) }, conditions);
    if (document.text === undefined) return this.withValidators({ status: 200, body: '', bytes: document.bytes }, conditions, document.modifiedMs);
    const body = filterByRange(kind, document.text, range, this.zone);
    // Unfiltered, the body is the document read, and its kept bytes (and their ETag) are those of the body.
    const kept = body === document.text ? document.bytes : undefined;
    const answer: Answer = { status: 200, body, ...(kept === undefined ? {} : { bytes: kept }) };
    return this.withValidators(answer, conditions, document.modifiedMs, kept === undefined ? undefined : document.etag);
  }

  private withValidators(answer: Answer, conditions: Conditions, modifiedMs?: number, etag?: string): Answer {
    return this.validators ? validated(answer, conditions, modifiedMs, etag) : answer;
  }

  private async relationships(actorId: string): Promise<Answer> {
    if (!ID.test(actorId)) return badRequest('actor id must be 12 digits');
    return { status: 200, body: (await this.store.relationshipsDocument(actorId)) ?? emptyRelationships(actorId) };
  }

  private async write(action: 'arrival' | 'payment', id: string, rawContactId: string, request: SimRequest): Promise<Answer> {
    if (!ID.test(id)) return badRequest('id must be 12 digits');
    const contactId = decodeSegment(rawContactId);
    if (contactId === undefined || contactId === '' || contactId.length > 256) return badRequest('contactId');
    try {
      if (action === 'arrival') return resultRecord(await this.ehr.registerArrival(id, contactId, AT_ANY_TIME));
      const payment = parsePayment(request.contentType, request.body);
      if ('refused' in payment) return badRequest(payment.refused);
      return resultRecord(await this.ehr.registerPayment(id, contactId, payment.paymentType));
    } catch (err) {
      if (err instanceof EhrError && err.failure === 'patient-not-found') return unknownPatient(id);
      return fault(500, 'INTERNAL_ERROR', 'Internal error');
    }
  }
}
