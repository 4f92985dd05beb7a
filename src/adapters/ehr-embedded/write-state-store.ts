import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import { writeDurably } from '../fs/durable-write.js';
import { readTextIfExists } from '../fs/if-exists.js';
import { EhrError } from '../../domain/ehr-error.js';
import { FileLockBusyError, withFileLock } from './file-lock.js';

export interface WriteState {
  version: 1;
  /** `patientId/contactId` -> when the arrival was registered (ISO UTC). */
  arrivals: Record<string, string>;
  payments: Record<string, { paymentType: PaymentType; at: string }>;
}

const LOCK_TIMEOUT_MS = 5000;
/** What a caller refused for a lock held elsewhere is told to wait: the lock of a process that died holding it goes stale in 10 s. */
const BUSY_RETRY_AFTER_S = 5;

/**
 * The outcomes of the two writes, kept outside the EHR's data files. Every change reads the
 * file, changes it and writes it back (temp file, fsync, rename) under a lock that all processes
 * sharing the folder respect, so concurrent identical writes change state once — in one process
 * or across several — and a restart loses nothing.
 */
export class WriteStateStore {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string, private readonly lockTimeoutMs: number) {}

  static async open(file: string, options: { lockTimeoutMs?: number } = {}): Promise<WriteStateStore> {
    await mkdir(path.dirname(file), { recursive: true });
    const store = new WriteStateStore(file, options.lockTimeoutMs ?? LOCK_TIMEOUT_MS);
    await store.load();
    return store;
  }

  /**
   * Runs `change` alone; if it reports a change, the new state is on disk before the result is returned.
   * A lock another process holds past the wait is an EHR unavailable for now (503 with Retry-After), and nothing changed.
   */
  exclusive<T>(change: (state: WriteState) => { changed: boolean; result: T }): Promise<T> {
    const run = this.tail.then(() => withFileLock(this.file, this.lockTimeoutMs, async () => {
      const draft = await this.load();
      const { changed, result } = change(draft);
      if (changed) await this.persist(draft);
      return result;
    })).catch((err: unknown) => {
      if (err instanceof FileLockBusyError) throw new EhrError('unavailable', 'the write state is locked by another process', BUSY_RETRY_AFTER_S);
      throw err;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<WriteState> {
    const text = await readTextIfExists(this.file);
    const parsed = (text === undefined ? {} : JSON.parse(text)) as Partial<WriteState>;
    return { version: 1, arrivals: { ...parsed.arrivals }, payments: { ...parsed.payments } };
  }

  private async persist(state: WriteState): Promise<void> {
    await writeDurably(this.file, JSON.stringify(state, null, 1));
  }
}
