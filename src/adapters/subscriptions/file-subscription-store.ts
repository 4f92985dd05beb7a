import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SubscriptionStoreUnavailableError } from '../../ports/subscription-store.port.js';
import { writeDurably } from '../fs/durable-write.js';
import { readTextIfExists } from '../fs/if-exists.js';
import { MemorySubscriptionStore } from './memory-subscription-store.js';
import { emptyState, SubscriptionTable, type SubscriptionTableState } from './subscription-table.js';

/**
 * Subscriptions kept in one file in DATA_DIR (`subscriptions.json`, 0600), the embedded default for one
 * instance (several instances keep them in PostgreSQL: docs/notifications.md#where-it-is-kept). Every
 * change resolves only once a write of the file made after it is durable (temp file, fsync, rename),
 * so an event numbered and sent is never numbered again after a restart; changes that come while a
 * write is under way are written together by the next one.
 */
export class FileSubscriptionStore extends MemorySubscriptionStore {
  override readonly kind = 'file';
  private writing: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  private constructor(private readonly file: string, table: SubscriptionTable) {
    super(table);
  }

  static async open(dataDir: string): Promise<FileSubscriptionStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(dataDir, 'subscriptions.json');
    const text = await readTextIfExists(file);
    let state: SubscriptionTableState = emptyState();
    if (text !== undefined) {
      try {
        state = { ...emptyState(), ...(JSON.parse(text) as Partial<SubscriptionTableState>) };
      } catch {
        throw new SubscriptionStoreUnavailableError(`${file} is not the JSON this service writes: restore it from a backup, or move it away to start with no subscriptions`);
      }
    }
    return new FileSubscriptionStore(file, new SubscriptionTable(state));
  }

  /** Group commit: one write at a time; a change waits for the first write that starts after it. */
  protected override changed(): Promise<void> {
    if (this.next !== undefined) return this.next;
    const after = this.writing ?? Promise.resolve();
    const write = after.catch(() => undefined).then(async () => {
      this.next = undefined;
      this.writing = write;
      try {
        await writeDurably(this.file, JSON.stringify(this.table.state));
      } catch (err) {
        throw new SubscriptionStoreUnavailableError(`subscriptions could not be written to ${this.file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
      } finally {
        if (this.writing === write) this.writing = undefined;
      }
    });
    this.next = write;
    return write;
  }

  override async close(): Promise<void> {
    await (this.next ?? this.writing)?.catch(() => undefined);
  }
}
