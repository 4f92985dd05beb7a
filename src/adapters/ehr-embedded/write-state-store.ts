import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import { writeDurably } from '../fs/durable-write.js';
import { readTextIfExists } from '../fs/if-exists.js';
import { withFileLock } from './file-lock.js';

export interface WriteState {
  version: 1;
  /** `patientId/contactId` -> when the arrival was registered (ISO UTC). */
  arrivals: Record<string, string>;
  payments: Record<string, { paymentType: PaymentType; at: string }>;
}

const LOCK_TIMEOUT_MS = 5000;

/**
 * The outcomes of the two writes, kept outside the EHR's data files. Every change reads the
 * file, changes it and writes it back (temp file, fsync, rename) under a lock that all processes
 * sharing the folder respect, so concurrent identical writes change state once — in one process
 * or across several — and a restart loses nothing.
 */
export class WriteStateStore {
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(file: string): Promise<WriteStateStore> {
    await mkdir(path.dirname(file), { recursive: true });
    const store = new WriteStateStore(file);
    await store.load();
    return store;
  }

  /** Runs `change` alone; if it reports a change, the new state is on disk before the result is returned. */
  exclusive<T>(change: (state: WriteState) => { changed: boolean; result: T }): Promise<T> {
    const run = this.tail.then(() => withFileLock(this.file, LOCK_TIMEOUT_MS, async () => {
      const draft = await this.load();
      const { changed, result } = change(draft);
      if (changed) await this.persist(draft);
      return result;
    }));
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
