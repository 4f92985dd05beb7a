/**
 * Issue 56 item 2: an unchanged document is neither transferred nor mapped again. A read's answer
 * (its records, mapped and selected) is kept, in the process's kept mappings (EHR_CACHE_BYTES,
 * src/adapters/mapped-documents/), under the validator the EHR sent with it (ehr-http/validators.ts);
 * the next GET of the same document asks whether it is still that one, and a 304 that says so is
 * answered from what was kept.
 *
 * What keeps one patient's answer from ever answering another's: an answer is kept under a key that
 * names this EHR, the patient, the document, the request's exact path and the range selected, and a
 * 304 is only ever looked up under the key of the request it answers, at the validator that request
 * sent. A 304 that names another validator is not taken as news of the kept answer, nor is one whose
 * answer was forgotten meanwhile (evicted, or replaced by a newer one): the read asks again,
 * unconditionally. A 304 to a request that sent no validator is a fault of that answer. Every 200
 * replaces what was kept, whatever becomes of its own mapping: at once when it names another version
 * (or none), once its own mapping is kept when it names the same one.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { TimeRange } from '../../domain/time/time-range.js';
import type { MappedDocuments } from '../mapped-documents/mapped-documents.js';
import { AnswerFaultError } from '../ehr-http/answer-fault.js';
import { confirms, preconditionOf, validatorOf } from '../ehr-http/validators.js';

/** A read's records as answered, and the reasons its mapping left items out (told again with every use). */
export interface KeptAnswer<T> {
  records: T;
  dropped: readonly string[];
}

/**
 * How the EHR answered a conditional GET (pdas_ehr_conditional_requests_total): `not-modified`, a 304
 * answered from the kept answer; `modified`, a 200; `refetched`, a 304 about no answer kept now.
 */
export type ConditionalAnswer = 'not-modified' | 'modified' | 'refetched';

/** A 304 to a GET that sent no validator: the EHR's fault, answered 502 for that request alone. */
export const notModifiedUnasked = (): AnswerFaultError => new AnswerFaultError('EHR answered 304 Not Modified to a request that was not conditional');

export class KeptAnswers {
  constructor(
    private readonly kept: MappedDocuments,
    /** This EHR (EHR_BASE_URL's origin and path): two remote EHRs of one process never share an answer. */
    private readonly source: string,
    private readonly onDropped: (reason: string) => void,
    private readonly onConditional: (answer: ConditionalAnswer) => void,
  ) {}

  /** The name of one read's answer: this EHR, the patient, the document, the request's exact path and the range selected. */
  keyOf(patientId: string, kind: string, path: string, range: TimeRange): string {
    return [this.source, patientId, kind, path, range.from ?? '', range.to ?? ''].join('\n');
  }

  /** The validator of what is kept under `key`, to make the next GET conditional on; undefined when nothing is kept. */
  validatorOf(key: string): string | undefined {
    return this.kept.versionOf(key);
  }

  /** The precondition header of `validator` (none without one). */
  headersOf(validator: string | undefined): Record<string, string> | undefined {
    return validator === undefined ? undefined : preconditionOf(validator);
  }

  /**
   * The kept answer a 304 confirms, or undefined when it cannot be trusted to be about one (the
   * caller then asks again, unconditionally). `sent`: the validator the request sent.
   */
  notModified<T>(key: string, headers: IncomingHttpHeaders, sent: string | undefined): KeptAnswer<T> | undefined {
    if (sent === undefined) throw notModifiedUnasked();
    const answer = confirms(headers, sent) ? this.kept.reuse<KeptAnswer<T>>(key, sent) : undefined;
    this.onConditional(answer === undefined ? 'refetched' : 'not-modified');
    if (answer === undefined) return undefined;
    for (const reason of answer.dropped) this.onDropped(reason);
    return answer;
  }

  /**
   * A 200 came: what was kept under `key` is not the current document, unless the 200 names the very
   * version kept (asked unconditionally, or an EHR that ignored the precondition), which then stays in
   * use until the 200's own mapping replaces it.
   */
  replaced(key: string, sent: string | undefined, headers: IncomingHttpHeaders): void {
    if (sent !== undefined) this.onConditional('modified');
    if (this.kept.versionOf(key) !== validatorOf(headers)) this.kept.forget(key);
  }

  /** The fresh answer of a 200, kept under its validator when it has one (frozen then); `bytes`, the document's size. */
  keep<T>(key: string, headers: IncomingHttpHeaders, answer: KeptAnswer<T>, bytes: number): Promise<KeptAnswer<T>> {
    return this.kept.keep(key, validatorOf(headers), answer, bytes);
  }
}
