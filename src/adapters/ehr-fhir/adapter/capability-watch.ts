/**
 * The CapabilityStatement check behind `ping` (docs/upstream-fhir.md#transport): read once, then
 * again when it is 10 minutes old, so a server that loses a search parameter a read needs is
 * noticed without reading the statement on every readiness probe. A failed read is not kept: the
 * next ping tries again.
 */
import type { CapabilityCheck } from '../client/capabilities.js';

export const CAPABILITY_REFRESH_MS = 10 * 60_000;

export class CapabilityWatch {
  private last: { at: number; check: CapabilityCheck } | undefined;
  private pending: Promise<CapabilityCheck | undefined> | undefined;

  constructor(
    private readonly read: () => Promise<CapabilityCheck>,
    private readonly now: () => number,
    /** Told each fresh judgement (the adapter logs what is missing). */
    private readonly onCheck: (check: CapabilityCheck) => void,
  ) {}

  /** The latest judgement, read anew when none is kept or it is 10 minutes old; undefined when it cannot be read. */
  current(): Promise<CapabilityCheck | undefined> {
    if (this.last !== undefined && this.now() - this.last.at < CAPABILITY_REFRESH_MS) return Promise.resolve(this.last.check);
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async refresh(): Promise<CapabilityCheck | undefined> {
    try {
      const check = await this.read();
      this.last = { at: this.now(), check };
      this.onCheck(check);
      return check;
    } catch {
      return undefined;
    }
  }
}
