/**
 * The remote legacy EHR (`EHR_ADAPTER=xml-http`): the HTTP interface of upstream README §2 through a
 * bounded keep-alive pool, translated by the same XML mapper as the embedded EHR. Every call has a
 * deadline; reads are retried once after a lost connection, writes never; a circuit breaker stops
 * calling an EHR that keeps failing.
 */
import { createSecureContext } from 'node:tls';
import { Pool } from 'undici';
import type { DelegationRegistry, Relationship } from '../../ports/delegation-registry.port.js';
import {
  EhrError, PAYMENT_TYPES, type EhrRecords, type EhrWriteResult, type PaymentType, type ReadKind, type ReadResults, type TimeRange,
} from '../../ports/ehr-records.port.js';
import { selectInRange } from '../../domain/records/index.js';
import { MalformedDocumentError, mapDocumentInSlices, mapRelationships, mapResultRecord } from '../ehr-xml/index.js';
import { AnswerFaultError } from './answer-fault.js';
import { bodyLimitFor, documentOf } from './answer.js';
import { CircuitBreaker, CircuitOpenError } from './circuit-breaker.js';
import { exchange, type UpstreamRequest } from './exchange.js';
import type { XmlHttpEhrEvent, XmlHttpEhrOptions } from './options.js';
import { pingEhr } from './ping.js';
import { EhrConnector } from './ehr-connector.js';
import { isContactId, isPersonId, readPath, relationshipsPath, writePath } from './paths.js';

const MIB = 1024 * 1024;
const NOT_FOUND = (): EhrError => new EhrError('patient-not-found', 'unknown patient');
const KNOWN_PAYMENT_TYPES: ReadonlySet<string> = new Set<PaymentType>(PAYMENT_TYPES);
// A well-formed id nobody has: the EHR answers it with an empty registry or a Fault, never with patient data.
const PING_ACTOR = '000000000000';

/**
 * Only transport faults, timeouts and 5xx (503 and 429 among them) count against the EHR. A fault of
 * one answer (a malformed document, another patient's record, a body over the cap, a refusal of
 * this request) is that request's 502 alone (issue 12 item 3).
 */
const isInfrastructureFailure = (err: unknown): boolean =>
  err instanceof EhrError && err.failure !== 'patient-not-found' && !(err instanceof AnswerFaultError);

interface Call extends UpstreamRequest {
  patientPath: boolean;
}

export class XmlHttpEhr implements EhrRecords, DelegationRegistry {
  private readonly pool: Pool;
  private readonly prefix: string;
  private readonly maxBodyBytes: number;
  private readonly breaker: CircuitBreaker;
  private readonly emit: (event: XmlHttpEhrEvent) => void;
  private readonly connector: EhrConnector;

  constructor(private readonly options: XmlHttpEhrOptions) {
    const url = new URL(options.baseUrl);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
      throw new RangeError('baseUrl must be a plain http(s) URL without credentials, query or fragment');
    }
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.maxBodyBytes = options.maxBodyBytes ?? 10 * MIB;
    for (const [name, value] of [['timeoutMs', options.timeoutMs], ['maxBodyBytes', this.maxBodyBytes], ['connections', options.connections ?? 16]] as const) {
      if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
    }
    this.emit = options.onEvent ?? (() => undefined);
    this.connector = new EhrConnector({ timeout: options.timeoutMs, ...options.tls });
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 16,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connect: this.connector.connect,
      maxResponseSize: this.maxBodyBytes,
    });
    this.breaker = new CircuitBreaker(
      { failureThreshold: options.breaker?.failureThreshold ?? 5, openMs: options.breaker?.openMs ?? 10_000 },
      options.now ?? Date.now, (change) => this.emit(change));
  }

  async read<K extends ReadKind>(kind: K, patientId: string, range: TimeRange): Promise<ReadResults[K]> {
    if (!isPersonId(patientId)) throw NOT_FOUND();
    const path = readPath(kind, patientId, range, this.options.zone);
    return this.call({ method: 'GET', path, retryOnConnectionLoss: true, patientPath: true }, async (bytes) => {
      // In slices, and from the bytes: a megabyte of journal must neither hold the event loop while
      // it is read nor become one large string (ehr-xml/document-pieces.ts).
      const mapped = await mapDocumentInSlices(kind, bytes, {
        zone: this.options.zone, expectedPatientId: patientId, onDropped: this.options.onDropped,
      });
      return selectInRange(kind, mapped, range, this.options.zone);
    });
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

  /** Bypasses the breaker both ways, so readiness shows the EHR's real state. */
  ping(): Promise<boolean> {
    return pingEhr(this.pool, this.prefix + relationshipsPath(PING_ACTOR), this.options.timeoutMs);
  }

  /**
   * A rotated client certificate (or CA): connections opened from now on present it, open ones keep
   * theirs. Files that make no usable TLS context (a key of another certificate, a half-written file)
   * throw, and the options in use stay.
   */
  useTls(tls: NonNullable<XmlHttpEhrOptions['tls']>): void {
    createSecureContext(tls);
    this.connector.replace({ timeout: this.options.timeoutMs, ...tls });
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async call<T>(call: Call, interpret: (document: Buffer) => T | Promise<T>): Promise<T> {
    try {
      return await this.breaker.run(async () => {
        const answer = await exchange(this.pool, { ...call, path: this.prefix + call.path }, {
          timeoutMs: this.options.timeoutMs,
          bodyLimit: (status) => bodyLimitFor(status, this.maxBodyBytes),
          onRetry: () => this.emit({ type: 'retry', detail: `${call.method} after a lost connection` }),
          tlsErrorSince: (since) => this.connector.since(since),
        });
        const document = documentOf(answer, call.patientPath);
        try {
          return await interpret(document);
        } catch (err) {
          if (err instanceof MalformedDocumentError) throw untrusted(err);
          throw err;
        }
      }, isInfrastructureFailure);
    } catch (err) {
      if (err instanceof EhrError && err.failure !== 'patient-not-found' && !(err instanceof CircuitOpenError)) {
        this.emit({ type: 'upstream-error', detail: err.message });
      }
      throw err;
    }
  }
}

/** The mapper's reason is fixed text, but only the distinction a human must act on is passed on (THREATS #29). */
function untrusted(err: MalformedDocumentError): EhrError {
  return /another patient/.test(err.message)
    ? new AnswerFaultError('EHR answered a record of another patient')
    : new AnswerFaultError('EHR document is malformed');
}

function writeResult(document: Buffer): EhrWriteResult {
  const { resultCode, reasonCode } = mapResultRecord(document);
  return { resultCode, reasonCode };
}
