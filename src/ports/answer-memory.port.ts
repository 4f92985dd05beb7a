import type { ReadName } from '../domain/operations/table.js';

/**
 * The memory large answers hold while they are made (issue 20 item 6). An EHR adapter that maps
 * large upstream documents into record trees counts their bytes against a budget and makes the next
 * large document wait while the budget is spent. A tree lives until its answer is serialised, not
 * only until it is built, so the HTTP layer runs each read and the serialising of its answer inside
 * `answering`: the bytes an answer's documents hold stay counted until it ends.
 */
export interface AnswerMemory {
  /**
   * Runs `answer` (one read of `subject` and the serialising of its answer). `abandoned` aborts once
   * the caller has gone: an answer that has not begun by then is dropped (AnswerAbandonedError).
   */
  answering<T>(subject: AnswerSubject, abandoned: AbortSignal, answer: () => Promise<T>): Promise<T>;
}

/** Whose answer: one read of one patient's records. */
export interface AnswerSubject {
  read: ReadName;
  patientId: string;
}

/**
 * Too many large documents are already waiting for the budget: this one is dropped rather than held,
 * so memory stays bounded however many large reads arrive. Answered 503 with Retry-After, like load
 * shedding; it says nothing about the EHR, whose breaker never counts it.
 */
export class AnswerMemoryFullError extends Error {
  constructor(readonly retryAfterSeconds = 2) {
    super('too many large documents waiting to be mapped');
    this.name = 'AnswerMemoryFullError';
  }
}

/** The caller went away while its answer waited to begin: nothing was read for it, and nobody is left to answer. */
export class AnswerAbandonedError extends Error {
  constructor() {
    super('the caller went away before its answer was begun');
    this.name = 'AnswerAbandonedError';
  }
}

/** For an EHR whose answers need no budget (the embedded EHR shares one mapped tree per document). */
export const UNBOUNDED_ANSWER_MEMORY: AnswerMemory = { answering: (_subject, _abandoned, answer) => answer() };
