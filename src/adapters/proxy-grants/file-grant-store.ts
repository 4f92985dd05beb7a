import { statSync } from 'node:fs';
import { mkdir, open, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { GrantChange, GrantEvent, ProxyGrantStore, StoredGrant, StoredState } from '../../ports/proxy-grants.port.js';
import { ProxyGrantsUnavailableError } from '../../ports/proxy-grants.port.js';
import { FileLockBusyError, withFileLock } from '../ehr-embedded/file-lock.js';
import { writeDurably } from '../fs/durable-write.js';
import { readTextIfExists } from '../fs/if-exists.js';
import { EMPTY_STATE, GrantTable, type GrantTableState } from './grant-table.js';

const LOCK_TIMEOUT_MS = 5000;

/** A turn lock older than this was left by a process that died holding it (a sweep takes well under a minute). */
const TURN_STALE_MS = 120_000;

/** Takes the lock file unless another process holds it; one left by a dead process is taken over. */
async function takeLock(lock: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await (await open(lock, 'wx', 0o600)).close();
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age <= TURN_STALE_MS) return false;
      await unlink(lock).catch(() => undefined);
    }
  }
  return false;
}

/**
 * What tells one version of the file from the next without reading it. Every read as a proxy asks, so
 * it is a synchronous stat, as the embedded EHR's document versions are (ehr-embedded/document-store.ts):
 * the asynchronous one's trip through libuv's thread pool, behind the audit trail's fsyncs, was 22 %
 * of a proxy's read's CPU profile (docs/benchmarks-history.md#issue-53-a-read-as-a-proxy-2026-11-26).
 */
const versionOf = (file: string): string => {
  const s = statSync(file, { throwIfNoEntry: false });
  return s === undefined ? 'absent' : `${s.ino}:${s.size}:${s.mtimeMs}`;
};

/**
 * Grants kept in one file in DATA_DIR (`proxy-grants.json`), the embedded default: every change reads
 * the file, changes it and writes it back (temp file, fsync, rename) under the lock every process
 * sharing the folder respects, so two grants at once are decided one after the other and a restart
 * loses nothing. A read takes the file anew only when it changed (its inode, size and time), so
 * another process's revoke is seen by the very next request.
 */
export class FileGrantStore implements ProxyGrantStore {
  readonly kind = 'file';
  private table = new GrantTable();
  private version = '';
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly file: string) {}

  static async open(dataDir: string): Promise<FileGrantStore> {
    await mkdir(dataDir, { recursive: true });
    const store = new FileGrantStore(path.join(dataDir, 'proxy-grants.json'));
    await store.current();
    return store;
  }

  private async current(): Promise<GrantTable> {
    try {
      const version = versionOf(this.file);
      if (version !== this.version) {
        const text = await readTextIfExists(this.file);
        this.table = new GrantTable(text === undefined ? EMPTY_STATE : JSON.parse(text) as GrantTableState);
        this.version = version;
      }
      return this.table;
    } catch (err) {
      throw new ProxyGrantsUnavailableError(`the proxy grants in ${this.file} cannot be read`, { cause: err });
    }
  }

  /** Runs `work` on the file's current table alone; what it changed is on disk before it answers. */
  private exclusive<T>(work: (table: GrantTable) => { changed: boolean; result: T }): Promise<T> {
    const run = this.tail.then(() => withFileLock(this.file, LOCK_TIMEOUT_MS, async () => {
      const table = await this.current();
      const { changed, result } = work(table);
      if (changed) await this.persist(table.state());
      return result;
    })).catch((err: unknown) => {
      // Held by another process past the wait: the grants are unavailable for now (503), nothing changed.
      if (err instanceof FileLockBusyError) throw new ProxyGrantsUnavailableError(`the proxy grants in ${this.file} are locked by another process`, { cause: err });
      throw err;
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async persist(state: GrantTableState): Promise<void> {
    await writeDurably(this.file, JSON.stringify(state));
    this.version = versionOf(this.file);
  }

  create(grant: StoredGrant, admit: (given: readonly StoredGrant[]) => void): Promise<void> {
    return this.exclusive((table) => {
      table.create(grant, admit);
      return { changed: true, result: undefined };
    });
  }

  async byId(id: string): Promise<StoredGrant | undefined> {
    return (await this.current()).get(id);
  }

  async involving(personId: string): Promise<StoredGrant[]> {
    return (await this.current()).all((g) => g.grantor === personId || g.grantee === personId);
  }

  async activeReceivedBy(granteeId: string): Promise<StoredGrant[]> {
    return (await this.current()).all((g) => g.grantee === granteeId && g.state === 'active');
  }

  change(id: string, from: readonly StoredState[], change: GrantChange, event: GrantEvent): Promise<StoredGrant | undefined> {
    return this.exclusive((table) => {
      const changed = table.change(id, from, change, event);
      return { changed: changed !== undefined, result: changed };
    });
  }

  async due(nowMs: number, createdBy: number): Promise<StoredGrant[]> {
    return (await this.current()).due(nowMs, createdBy);
  }

  /**
   * One process at a time records lapses: a lock file every process sharing the folder respects. A
   * process finding it held is told no at once (the port's contract), not made to wait and then fail.
   */
  async inTurn<T>(work: () => Promise<T>): Promise<T | undefined> {
    const lock = `${this.file}.turn.lock`;
    if (!await takeLock(lock)) return undefined;
    try {
      return await work();
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  }

  async events(afterSeq: number, limit: number): Promise<GrantEvent[]> {
    return (await this.current()).eventsAfter(afterSeq, limit);
  }

  async close(): Promise<void> {
    await this.tail;
  }
}
