export interface SkippedChecksOptions {
  /** At most one warning line per this many milliseconds, however many requests pass unchecked. */
  intervalMs: number;
  now: () => number;
  warn: (message: string) => void;
  info: (message: string) => void;
}

/**
 * Counts requests answered without a limit check and turns an outage into a few log lines: the
 * first failure warns at once, later ones at most once per interval with the number since, and
 * the return of Redis reports what the last interval left unsaid.
 */
export class SkippedChecks {
  private total = 0;
  private sinceWarning = 0;
  private lastWarningAt: number | undefined;
  private degraded = false;

  constructor(private readonly options: SkippedChecksOptions) {}

  get count(): number {
    return this.total;
  }

  skipped(cause: string): void {
    this.total++;
    this.sinceWarning++;
    this.failed(cause);
  }

  /** The connection failed without a request being let through (a reconnect attempt, a handshake). */
  failed(cause: string): void {
    this.degraded = true;
    const now = this.options.now();
    if (this.lastWarningAt !== undefined && now - this.lastWarningAt < this.options.intervalMs) return;
    this.lastWarningAt = now;
    this.options.warn(`Redis for rate limits is unavailable (${cause}): limits are not enforced; `
      + `skipped checks: ${this.sinceWarning} since the previous warning, ${this.total} in all`);
    this.sinceWarning = 0;
  }

  recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.options.info(`Redis for rate limits is reachable again: limits are enforced; `
      + `skipped checks: ${this.sinceWarning} since the previous warning, ${this.total} in all`);
    this.sinceWarning = 0;
    // The next outage is news and is reported at once.
    this.lastWarningAt = undefined;
  }
}

/** A short, fixed-form cause: error codes and driver messages only, never a key or a value. */
export function causeOf(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const code = (err as { code?: unknown }).code;
  const text = typeof code === 'string' ? code
    : err.message.includes('enableOfflineQueue') ? 'not connected' : err.message;
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 120);
}
