import { setImmediate as nextTurn } from 'node:timers/promises';
import { isFrozenWhole } from '../../domain/frozen-whole.js';
import { JsonAnswer } from './json-answer.js';
import { sharedBytes } from './pieces-stream.js';
import { serialiserOf, type Serialise } from './shared-serializers.js';
import type { TSchema } from 'typebox';

/** Longest stretch, in ms, spent serialising before the event loop gets a turn. */
export const SERIALISE_SLICE_MS = 2;

/**
 * The JSON of records that can never change, remembered for as long as they live: the embedded
 * EHR keeps its mapped documents deep-frozen and hands the same objects to every request, so a
 * journal extract is serialised once per version of its file, not once per read. Anything not
 * deep-frozen (masked copies, the remote EHR's fresh records) is serialised every time.
 */
class RememberedJson {
  private readonly known = new WeakMap<object, Buffer>();

  constructor(private readonly serialise: Serialise) {}

  of(value: unknown): string | Buffer {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return this.serialise(value);
    const known = this.known.get(value);
    if (known) return known;
    const text = this.serialise(value);
    // Frozen all the way down now means frozen for good: what it serialises to cannot go stale.
    if (!isFrozenWhole(value)) return text;
    const bytes = sharedBytes(text);
    this.known.set(value, bytes);
    return bytes;
  }
}

/** Items and bulk elements past which an answer is large (a 1 MB journal holds about 170 extracts). */
const LARGE_ANSWER = 100;

/** An item's array property that can grow large, and how its elements are written. */
interface Bulk {
  field: string;
  element: RememberedJson;
  /** `"field":[]` as the item serialiser writes an empty bulk: where the elements go. */
  emptyMarker: string;
}

/**
 * Serialises a read's answer (an array of items) as fastify would with the route's response
 * schema, byte for byte (fast-json-stringify, same schemas; test/http/sliced-json.test.ts holds it to
 * that), but piece by piece: an item, or each element of its bulk field, at a time. Every few
 * milliseconds it yields to the event loop, so a 1 MB journal answer never holds the loop for the
 * tens of milliseconds one `JSON` call over it takes. The answer comes back as UTF-8 pieces, encoded
 * slice by slice, so neither the length nor the write has to walk a large string again, and never
 * copied into one buffer: the remembered JSON of records that can never change (RememberedJson) is
 * written from where it is kept, by every answer that holds it (json-answer.ts).
 */
export class SlicedJsonSerializer {
  private readonly itemText: Serialise;
  private readonly item: RememberedJson;
  private readonly bulk: Bulk | undefined;

  /**
   * @param bulkField the item's array property that holds its bulk (a record's extracts), whose
   *   elements are then serialised one at a time too
   */
  constructor(itemSchema: TSchema, bulkField?: string, private readonly sliceMs = SERIALISE_SLICE_MS) {
    this.itemText = serialiserOf(itemSchema);
    this.item = new RememberedJson(this.itemText);
    if (bulkField === undefined) return;
    const array = (itemSchema as { properties?: Record<string, { type?: unknown; items?: TSchema }> }).properties?.[bulkField];
    if (array?.type !== 'array' || array.items === undefined) throw new TypeError(`${bulkField} is not an array property of the item schema`);
    this.bulk = {
      field: bulkField,
      element: new RememberedJson(serialiserOf(array.items)),
      emptyMarker: `${JSON.stringify(bulkField)}:[]`,
    };
  }

  /** Whether `items` hold more than LARGE_ANSWER items and bulk elements: an answer of hundreds of kilobytes or more. */
  isLarge(items: readonly unknown[]): boolean {
    let n = items.length;
    const field = this.bulk?.field;
    for (let i = 0; i < items.length && n <= LARGE_ANSWER && field !== undefined; i++) {
      const elements = (items[i] as Record<string, unknown> | null)?.[field];
      if (Array.isArray(elements)) n += elements.length;
    }
    return n > LARGE_ANSWER;
  }

  async serialise(items: readonly unknown[]): Promise<JsonAnswer> {
    const out = new SliceWriter(this.sliceMs);
    out.add('[');
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out.add(',');
      await this.writeItem(items[i], out);
    }
    out.add(']');
    return out.answer();
  }

  private async writeItem(item: unknown, out: SliceWriter): Promise<void> {
    const { bulk } = this;
    const elements = bulk === undefined || typeof item !== 'object' || item === null
      ? undefined : (item as Record<string, unknown>)[bulk.field];
    if (bulk === undefined || !Array.isArray(elements)) {
      if (out.add(this.item.of(item))) await out.pause();
      return;
    }
    // The item without its bulk, then the bulk's elements one by one where the empty array stood.
    const shell = this.itemText({ ...(item as object), [bulk.field]: [] });
    // Quotes inside string values are escaped, so `"field":[]` with bare quotes can only be the key.
    const at = shell.indexOf(bulk.emptyMarker);
    if (at < 0) throw new Error(`serialised item has no ${bulk.emptyMarker}`);
    const open = at + bulk.emptyMarker.length - 1;
    out.add(shell.slice(0, open));
    for (let i = 0; i < elements.length; i++) {
      if (i > 0) out.add(',');
      if (out.add(bulk.element.of(elements[i]))) await out.pause();
    }
    out.add(shell.slice(open));
  }
}

/** UTF-8 is written out once this much text has gathered, so a slice's time includes its encoding. */
const ENCODE_CHARS = 16 * 1024;

/** Collects text, turns it into bytes as it gathers, and says when a slice has run long enough. */
class SliceWriter {
  private readonly chunks: Buffer[] = [];
  private byteLength = 0;
  private pending: string[] = [];
  private pendingChars = 0;
  private sliceStart = performance.now();

  constructor(private readonly sliceMs: number) {}

  /** Adds `part` (text, or bytes already encoded); true when the slice is used up and the caller should `pause()`. */
  add(part: string | Buffer): boolean {
    if (typeof part === 'string') {
      this.pending.push(part);
      this.pendingChars += part.length;
      if (this.pendingChars >= ENCODE_CHARS) this.encodePending();
    } else {
      this.encodePending();
      this.push(part);
    }
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  async pause(): Promise<void> {
    await nextTurn();
    this.sliceStart = performance.now();
  }

  answer(): JsonAnswer {
    this.encodePending();
    return new JsonAnswer(this.chunks, this.byteLength);
  }

  private push(piece: Buffer): void {
    this.chunks.push(piece);
    this.byteLength += piece.length;
  }

  private encodePending(): void {
    if (this.pending.length === 0) return;
    this.push(Buffer.from(this.pending.join(''), 'utf8'));
    this.pending = [];
    this.pendingChars = 0;
  }
}
