/**
 * Serialises identical writes (same operation, patient and appointment) across every instance of
 * the service, so a legacy EHR never sees two of them at once and can answer all but the first
 * with "already done" instead of registering twice.
 */
export interface WriteCoordinator {
  /**
   * Runs `write` while no other instance runs one for `key`; resolves or rejects as `write` does.
   * A write not begun when `abandoned` aborts (its caller has gone) is dropped with
   * AnswerAbandonedError (answer-memory.port.ts); one that has waited the coordinator's longest wait,
   * counted from this call, is dropped with EhrError 'unavailable' (the caller may retry). A dropped
   * write is never begun later.
   */
  exclusive<T>(key: string, abandoned: AbortSignal, write: () => Promise<T>): Promise<T>;
}
