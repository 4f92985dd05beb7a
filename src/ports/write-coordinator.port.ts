/**
 * Serialises identical writes (same operation, patient and appointment) across every instance of
 * the service, so a legacy EHR never sees two of them at once and can answer all but the first
 * with "already done" instead of registering twice.
 */
export interface WriteCoordinator {
  /** Runs `write` while no other instance runs one for `key`; resolves or rejects as `write` does. */
  exclusive<T>(key: string, write: () => Promise<T>): Promise<T>;
}
