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
   * counted from this call, is dropped with EhrError 'unavailable' (the caller may retry). One whose turn
   * cannot be taken across every instance (their shared lock's store unreachable) is refused with
   * WriteTurnUnavailableError. A dropped or refused write is never begun later.
   */
  exclusive<T>(key: string, abandoned: AbortSignal, write: () => Promise<T>): Promise<T>;
}

/**
 * A write's turn could not be taken across the service's instances (their shared lock's store did not
 * answer), so it was not made: made anyway, two instances could each register one visit's payment
 * (hostile review helper-133, F2). The caller may send it again.
 */
export class WriteTurnUnavailableError extends Error {
  constructor() {
    super('the turn of a write could not be taken across the instances; nothing was written');
    this.name = 'WriteTurnUnavailableError';
  }
}
