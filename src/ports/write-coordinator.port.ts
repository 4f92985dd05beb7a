/**
 * Serialises identical writes (same operation and booking) across every instance of
 * the service, so a legacy EHR never sees two of them at once and can answer all but the first
 * with "already done" instead of registering twice.
 */
export interface WriteCoordinator {
  /**
   * Runs `write` while no other instance runs one for `key`; resolves or rejects as `write` does.
   * A write not begun when `abandoned` aborts (its caller has gone) is dropped with
   * AnswerAbandonedError (answer-memory.port.ts); one that has waited the coordinator's longest wait,
   * counted from this call, is dropped with WriteStillInProgressError (the caller may retry). One whose turn
   * cannot be taken across every instance (their shared lock's store unreachable) is refused with
   * WriteTurnUnavailableError. A dropped or refused write is never begun later. A write whose outcome is
   * unknown (it rejected with an EhrError of `unconfirmedWrite`: sent, and not answered in time) keeps its
   * key's turn until the coordinator's lock would have expired, so a repeat is not made beside it.
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

/**
 * A write waited its longest for its turn: an identical one is being made, or one the EHR did not confirm
 * may still be made. Nothing was written for this one; the same request again tells.
 */
export class WriteStillInProgressError extends Error {
  constructor() {
    super('an identical write is still in progress, or its outcome is not known yet');
    this.name = 'WriteStillInProgressError';
  }
}
