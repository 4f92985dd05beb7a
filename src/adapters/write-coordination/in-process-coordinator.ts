import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';

/** Identical writes take turns within this process: enough for one instance, the fallback for many. */
export class InProcessCoordinator implements WriteCoordinator {
  private readonly tails = new Map<string, Promise<unknown>>();

  exclusive<T>(key: string, write: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(write, write);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    // Forget the key once nothing more is queued behind this write, so the map stays small.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }

  get pending(): number {
    return this.tails.size;
  }
}
