/**
 * The FHIR R4 EHR (`EHR_ADAPTER=fhir-r4`, docs/upstream-fhir.md): the reads of the operation table
 * it has a plan for, the delegation registry from tagged RelatedPersons, and the two writes, over the
 * shared EHR transport; for each API request, a view whose calls share one identity lookup; the pages
 * a read holds count against the answer-memory budget. `ping` is ready when the server answers its CapabilityStatement and that statement lists every search
 * parameter the registry and every read send; a read whose own searches it lacks is unavailable
 * (`unavailableReads`, ReadUnavailableError) while the others serve (issue 57 item 4).
 */
import type { Relationship } from '../../../domain/access/relationship.js';
import { EhrError } from '../../../domain/ehr-error.js';
import type { ReadName } from '../../../domain/operations/table.js';
import { ReadUnavailableError, type UnavailableReads } from '../../../domain/read-availability/unavailable-read.js';
import { PAYMENT_TYPES, type PaymentType } from '../../../domain/writes/payment-types.js';
import type { ArrivalCheck } from '../../../domain/writes/arrival-window.js';
import type { EhrWriteResult } from '../../../domain/writes/write-outcomes.js';
import { eachRead } from '../../../domain/use-cases/read-sources.js';
import type { DelegationRegistry } from '../../../ports/delegation-registry.port.js';
import type { EhrCalls, EhrReads, EhrRecords } from '../../../ports/ehr-records.port.js';
import { deadlinePassed, type UpstreamAnswer } from '../../ehr-http/exchange.js';
import { EhrHttpTransport, type EhrTls } from '../../ehr-http/transport.js';
import { answerMemoryOf, type DocumentsInFlight } from '../../ehr-xml-http/documents-in-flight.js';
import { checkCapabilities, neededSearches, typesTakingPatient, type CapabilityCheck } from '../client/capabilities.js';
import { FhirClient } from '../client/fhir-client.js';
import { fhirReads, fhirRelationships, type FhirReadsOptions } from '../client/fhir-reads.js';
import { lookupOf, lookupOnce } from '../client/patient-lookup.js';
import { CapabilityWatch } from './capability-watch.js';
import { FhirWrites, type FhirWritesOptions } from './fhir-writes.js';
import { FHIR_MAX_PAGE_BYTES, type FhirEhrEvent, type FhirEhrOptions } from './options.js';
import { PageMemory } from './page-memory.js';
import { FHIR_MEDIA, transportExchange } from './transport-exchange.js';

const PERSON_ID = /^\d{12}$/;
const NOT_FOUND = (): EhrError => new EhrError('patient-not-found', 'unknown patient');
const KNOWN_PAYMENT_TYPES: ReadonlySet<string> = new Set<PaymentType>(PAYMENT_TYPES);

/** The server itself answered the readiness probe: a 200 in FHIR JSON (a proxy's page or a 5xx is not). */
const answeredAsFhir = (answer: UpstreamAnswer): boolean => {
  const type = answer.headers['content-type'];
  return answer.status === 200 && FHIR_MEDIA.readable(typeof type === 'string' ? type : undefined);
};

export class FhirEhr implements EhrRecords, DelegationRegistry {
  readonly reads: EhrReads;
  /** The bytes of the pages reads hold, counted until their answers are written (page-memory.ts). */
  readonly answerMemory: DocumentsInFlight;
  private readonly pages: PageMemory;
  private readonly client: FhirClient;
  private readonly transport: EhrHttpTransport;
  private readonly registry: (actor: string) => Promise<Relationship[]>;
  private readonly capabilities: CapabilityWatch;
  /** The reads the latest statement lacks a search of (client/capabilities.ts). */
  private lacking: ReadonlySet<ReadName> = new Set();
  private readonly readsOptions: FhirReadsOptions;
  private readonly writesOptions: FhirWritesOptions;
  private readonly writes: FhirWrites;
  private readonly emit: (event: FhirEhrEvent) => void;

  constructor(options: FhirEhrOptions) {
    this.emit = options.onEvent ?? (() => undefined);
    // Every answer body, pages and writes alike, is refused while it streams past the cap (answer-fault.ts: never counted by the breaker).
    this.transport = new EhrHttpTransport({ ...options, media: FHIR_MEDIA, maxBodyBytes: options.maxPageBytes ?? FHIR_MAX_PAGE_BYTES, onEvent: this.emit });
    // A turn or room waited for longer than a call may take is answered as that call's timeout would be.
    this.answerMemory = answerMemoryOf({ ...options, tooLong: deadlinePassed });
    this.pages = new PageMemory(this.answerMemory);
    this.client = new FhirClient({
      baseUrl: options.baseUrl, pageSize: options.pageSize, maxPages: options.maxPages,
      exchange: transportExchange(this.transport, options.baseUrl, options.authorization),
      onRefusal: (status, issues) => this.emit({ type: 'refusal', status, issues }),
      hold: (fetch, parse) => this.pages.page(fetch, parse),
    });
    this.readsOptions = {
      client: this.client, zone: options.zone, idRoot: options.idRoot, videoActionIdSystem: options.videoActionIdSystem,
      now: options.now ?? Date.now, note: options.onDropped, callTimeoutMs: options.timeoutMs,
      // What is fetched by `_id` names the patient where the server declares `patient` on the type (client/reference-resolution.ts).
      patientBoundTypes: async () => typesTakingPatient((await this.capabilities.current())?.capabilities),
    };
    this.reads = this.held(fhirReads(this.readsOptions));
    this.registry = fhirRelationships({ ...this.readsOptions, tag: options.delegationTag });
    const needed = neededSearches(Object.keys(this.reads) as ReadName[], options.role);
    this.capabilities = new CapabilityWatch(
      () => checkCapabilities(this.client, needed, AbortSignal.timeout(options.timeoutMs)), options.now ?? Date.now, (check) => this.report(check),
    );
    this.writesOptions = {
      client: this.client, paymentIdSystem: options.paymentIdSystem, zone: options.zone, now: options.now ?? Date.now,
      callTimeoutMs: options.timeoutMs, capabilities: () => this.capabilities.current(), note: (detail) => this.emit({ type: 'write-note', detail }),
    };
    this.writes = new FhirWrites(this.writesOptions);
  }

  /**
   * The EHR as one API request sees it (docs/upstream-fhir.md#one-lookup-per-request): its reads and
   * writes find the patient once, at the first call, and every later call of the request is about
   * that Patient. The found Patient lives in the view alone, dropped with the request.
   */
  forRequest(): EhrCalls {
    const lookup = lookupOnce(lookupOf(this.readsOptions));
    const writes = new FhirWrites({ ...this.writesOptions, lookup });
    return {
      reads: this.held(fhirReads({ ...this.readsOptions, lookup })),
      registerArrival: (patientId, contactId, arrivable) => arrival(writes, patientId, contactId, arrivable),
      registerPayment: (patientId, contactId, paymentType) => payment(writes, patientId, contactId, paymentType),
    };
  }

  async relationshipsOf(actorId: string): Promise<Relationship[]> {
    if (!PERSON_ID.test(actorId)) throw new RangeError('actor id must be 12 digits');
    return this.registry(actorId);
  }

  registerArrival(patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
    return arrival(this.writes, patientId, contactId, arrivable);
  }

  registerPayment(patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
    return payment(this.writes, patientId, contactId, paymentType);
  }

  /** Ready when the server answers its CapabilityStatement now, and the statement (re-read every 10 minutes) lists what the reads send. */
  async ping(): Promise<boolean> {
    if (!await this.transport.probe('/metadata', answeredAsFhir)) return false;
    return (await this.capabilities.current())?.ready ?? false;
  }

  /** The reads the server's latest CapabilityStatement lacks a search parameter of: they answer ReadUnavailableError. */
  unavailableReads(): UnavailableReads {
    return new Map([...this.lacking].map((read) => [read, 'ehr-lacks-searches'] as const));
  }

  /** A rotated client certificate (or CA) for new connections; files that make no usable pair throw, and the old one stays. */
  useTls(tls: EhrTls): void {
    this.transport.useTls(tls);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  /**
   * Each read inside the page budget of its record; an identity number that is not 12 digits is refused
   * before anything is sent, and so is a read whose searches the server's latest statement lacks: it
   * would answer nothing rather than fail (client/capabilities.ts). A statement not read yet, or that
   * cannot be read, stops no read.
   */
  private held(reads: EhrReads): EhrReads {
    return eachRead(reads, (read, reader) => async (patientId, range) => {
      if (!PERSON_ID.test(patientId)) throw NOT_FOUND();
      // The latest judgement kept (readiness reads the statement, at most every 10 minutes): a read never
      // waits for the statement itself, nor asks for it again on every call while it cannot be read.
      if (this.lacking.has(read)) throw new ReadUnavailableError(read, 'ehr-lacks-searches');
      return this.pages.reading(read, patientId, () => reader(patientId, range));
    });
  }

  private report(check: CapabilityCheck): void {
    this.lacking = check.unavailable;
    if (check.wrongVersion) this.emit({ type: 'capability-version', fhirVersion: check.capabilities.fhirVersion });
    for (const { type, param } of check.missing) this.emit({ type: 'capability-missing', resource: type, param });
    if (check.unavailable.size > 0) this.emit({ type: 'reads-unavailable', reads: [...check.unavailable] });
  }
}

/** An arrival, for an identity number of 12 digits only. */
async function arrival(writes: FhirWrites, patientId: string, contactId: string, arrivable: ArrivalCheck): Promise<EhrWriteResult> {
  if (!PERSON_ID.test(patientId)) throw NOT_FOUND();
  return writes.registerArrival(patientId, contactId, arrivable);
}

/** A payment, for an identity number of 12 digits and a known payment type only. */
async function payment(writes: FhirWrites, patientId: string, contactId: string, paymentType: PaymentType): Promise<EhrWriteResult> {
  if (!PERSON_ID.test(patientId)) throw NOT_FOUND();
  if (!KNOWN_PAYMENT_TYPES.has(paymentType)) throw new RangeError(`paymentType must be one of ${PAYMENT_TYPES.join(', ')}`);
  return writes.registerPayment(patientId, contactId, paymentType);
}
