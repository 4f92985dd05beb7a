import fastJsonStringify from 'fast-json-stringify';
import type { TSchema } from 'typebox';

/** Longest stretch, in ms, spent serialising before the event loop gets a turn. */
export const SERIALISE_SLICE_MS = 4;

type Serialise = (value: unknown) => string;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Serialises a read's answer (an array of items) as fastify would with the route's response
 * schema, byte for byte (fast-json-stringify, same schemas; test/http/sliced-json.test.ts holds it to
 * that), but piece by piece: an item, or each element of its bulk field, at a time. Every few
 * milliseconds it yields to the event loop, so a 1 MB journal answer never holds the loop for the
 * tens of milliseconds one `JSON` call over it takes. The answer comes back as UTF-8 bytes, encoded
 * slice by slice, so neither the length nor the write has to walk a large string again.
 */
export class SlicedJsonSerializer {
  private readonly item: Serialise;
  private readonly element: Serialise | undefined;
  /** `"name":[]` as the item serialiser writes an empty bulk field: where the elements go. */
  private readonly emptyBulk: string | undefined;

  /**
   * @param bulkField the item's array property that holds its bulk (a record's extracts), whose
   *   elements are then serialised one at a time too
   */
  constructor(itemSchema: TSchema, private readonly bulkField?: string, private readonly sliceMs = SERIALISE_SLICE_MS) {
    this.item = fastJsonStringify(itemSchema) as Serialise;
    if (bulkField === undefined) return;
    const bulk = (itemSchema as { properties?: Record<string, { type?: unknown; items?: TSchema }> }).properties?.[bulkField];
    if (bulk?.type !== 'array' || bulk.items === undefined) throw new TypeError(`${bulkField} is not an array property of the item schema`);
    this.element = fastJsonStringify(bulk.items) as Serialise;
    this.emptyBulk = `${JSON.stringify(bulkField)}:[]`;
  }

  async serialise(items: readonly unknown[]): Promise<Buffer> {
    const out = new SliceWriter(this.sliceMs);
    out.text('[');
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out.text(',');
      await this.writeItem(items[i], out);
    }
    out.text(']');
    return out.bytes();
  }

  private async writeItem(item: unknown, out: SliceWriter): Promise<void> {
    const elements = this.bulkOf(item);
    if (elements === undefined || this.bulkField === undefined || this.element === undefined || this.emptyBulk === undefined) {
      if (out.text(this.item(item))) await out.pause();
      return;
    }
    // The item without its bulk, then the bulk's elements one by one where the empty array stood.
    const shell = this.item({ ...(item as object), [this.bulkField]: [] });
    // Quotes inside string values are escaped, so `"name":[]` with bare quotes can only be the key.
    const at = shell.indexOf(this.emptyBulk);
    if (at < 0) throw new Error(`serialised item has no ${this.emptyBulk}`);
    const open = at + this.emptyBulk.length - 1;
    out.text(shell.slice(0, open));
    for (let i = 0; i < elements.length; i++) {
      if (i > 0) out.text(',');
      if (out.text(this.element(elements[i]))) await out.pause();
    }
    out.text(shell.slice(open));
  }

  private bulkOf(item: unknown): readonly unknown[] | undefined {
    if (this.bulkField === undefined || typeof item !== 'object' || item === null) return undefined;
    const value = (item as Record<string, unknown>)[this.bulkField];
    return Array.isArray(value) ? value : undefined;
  }
}

/** UTF-8 is written out once this much text has gathered, so a slice's time includes its encoding. */
const ENCODE_CHARS = 16 * 1024;

/** Collects text, turns it into bytes as it gathers, and says when a slice has run long enough. */
class SliceWriter {
  private readonly chunks: Buffer[] = [];
  private pending: string[] = [];
  private pendingChars = 0;
  private sliceStart = performance.now();

  constructor(private readonly sliceMs: number) {}

  /** Adds `part`; true when the slice is used up and the caller should `pause()`. */
  text(part: string): boolean {
    this.pending.push(part);
    this.pendingChars += part.length;
    if (this.pendingChars >= ENCODE_CHARS) this.encodePending();
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }

  bytes(): Buffer {
    this.encodePending();
    return this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
  }

  private encodePending(): void {
    if (this.pending.length === 0) return;
    this.chunks.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingChars = 0;
  }
}
