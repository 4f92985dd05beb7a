import { mkdir, readFile, rename, writeFile, open } from 'node:fs/promises';
import path from 'node:path';
import type { PaymentType } from '../../ports/ehr-records.port.js';

interface WriteState {
  version: 1;
  /** `patientId/contactId` -> when the arrival was registered (ISO UTC). */
  arrivals: Record<string, string>;
  payments: Record<string, { paymentType: PaymentType; at: string }>;
}

const empty = (): WriteState => ({ version: 1, arrivals: {}, payments: {} });

/**
 * The outcomes of the two writes, kept outside the EHR's data files. Mutations run one at a time
 * and are on disk (temp file, fsync, rename) before they are reported, so concurrent identical
 * writes change state once and a restart loses nothing.
 */
export class WriteStateStore {
  private state: WriteState = empty();
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(file: string): Promise<WriteStateStore> {
    const store = new WriteStateStore(file);
    await mkdir(path.dirname(file), { recursive: true });
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<WriteState>;
      store.state = { version: 1, arrivals: { ...parsed.arrivals }, payments: { ...parsed.payments } };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return store;
  }

  /** Runs `change` alone; if it returns true the new state is persisted before the result is returned. */
  exclusive<T>(change: (state: WriteState) => { changed: boolean; result: T }): Promise<T> {
    const run = this.tail.then(async () => {
      const draft: WriteState = structuredClone(this.state);
      const { changed, result } = change(draft);
      if (changed) {
        await this.persist(draft);
        this.state = draft;
      }
      return result;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async persist(state: WriteState): Promise<void> {
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(state, null, 1), { mode: 0o600 });
    const handle = await open(tmp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, this.file);
  }
}
