/**
 * How many bytes of large upstream documents are mapped at once (issue 20 item 6). A 1 MB journal
 * becomes a record tree several times its size while it is read; with fifty of them read at once
 * the trees, beside the documents and their JSON, took the process to 312 MB. Large documents wait
 * here, first come first served, until the bytes being mapped leave room for theirs; the wait holds
 * only the document's bytes. Small documents never wait: their trees are small, and they must not
 * queue behind large ones. A document larger than the whole budget is mapped alone.
 */

/** Documents of this many bytes or fewer are never held back. */
export const SMALL_DOCUMENT_BYTES = 256 * 1024;
/** Bytes of large documents mapped at once, by default. */
export const DOCUMENT_BYTES_IN_FLIGHT = 8 * 1024 * 1024;

export class DocumentsInFlight {
  private inUse = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];

  constructor(private readonly limit = DOCUMENT_BYTES_IN_FLIGHT) {
    if (!(limit > 0)) throw new RangeError('the budget must be positive');
  }

  /** `map`'s result, run once a document of `bytes` fits the budget (at once when it is small). */
  async run<T>(bytes: number, map: () => Promise<T>): Promise<T> {
    if (bytes <= SMALL_DOCUMENT_BYTES) return map();
    const weight = Math.min(bytes, this.limit);
    if (this.waiting.length === 0 && this.inUse + weight <= this.limit) this.inUse += weight;
    else await new Promise<void>((go) => this.waiting.push({ bytes: weight, go }));
    try {
      return await map();
    } finally {
      this.inUse -= weight;
      this.admit();
    }
  }

  /** Bytes of large documents being mapped now (for tests). */
  get bytesInFlight(): number {
    return this.inUse;
  }

  private admit(): void {
    for (let next = this.waiting[0]; next !== undefined && this.inUse + next.bytes <= this.limit; next = this.waiting[0]) {
      this.waiting.shift();
      this.inUse += next.bytes;
      next.go();
    }
  }
}
