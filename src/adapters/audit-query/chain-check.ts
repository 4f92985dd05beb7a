/**
 * What a check of an audit trail's hash chain finds, whichever store holds it
 * (docs/operations.md#the-audit-store): the newest record it vouches for, or the first that breaks the
 * chain and why. A record is named by its id in PostgreSQL and by its line number in the file.
 */

/** A record of the chain as an operator keeps it outside the store, to check from or compare with later. */
export interface ChainPoint {
  id: number;
  hash: string;
  /** UTC, as the store holds it. */
  time?: string;
}

/** Where to begin: a record trusted as it is (its hash, when given, must still be the one recorded). */
export interface Checkpoint {
  id: number;
  hash?: string;
}

export interface ChainBreak {
  id: number;
  time: string | undefined;
  why: string;
}

export interface ChainCheck {
  /** Records checked, the checkpoint's included. */
  checked: number;
  /** The newest record that holds (before the break, if there is one). */
  newest: ChainPoint | undefined;
  broken: ChainBreak | undefined;
  /** The file ends in a line still being written, or torn by a crash: left unchecked. */
  unfinishedTail?: boolean;
}

type Unit = 'record' | 'line';

const ALTERED = 'its content does not match its hash: it was altered';

/** Why a record whose link to the one before does not hold breaks the chain, named as precisely as the ids allow. */
function linkBroken(unit: Unit, before: number | undefined, id: number): string {
  if (before === undefined) return `it does not link to the start of the chain: the ${unit}s before it were removed, or it was altered`;
  const gap = id - before - 1;
  const lost = gap === 1 ? `${unit} ${before + 1} is missing`
    : gap > 1 ? `${unit}s ${before + 1} to ${id - 1} are missing`
      : `a ${unit} between them was removed, or ${unit} ${before} was rewritten with a hash of its own`;
  return `it does not link to ${unit} ${before} before it: ${lost}`;
}

/** One stored record as the walk sees it: its link (the hash it names as the one before) and whether its content matches its hash. */
export interface ChainLink {
  id: number;
  time: string | undefined;
  link: string;
  hash: string;
  /** Its hash recomputed from its content and its own link matches. */
  own: boolean;
  /** Not a record at all (a file's line that is no JSON object). */
  unreadable?: boolean;
}

/**
 * The chain check both stores share: records in chain order, each linked to the one before and
 * matching its own hash. From a checkpoint, the records before it are taken on trust, and the
 * checkpoint must still be there with the hash recorded.
 */
export class ChainWalk {
  private prev: string;
  private prevId: number | undefined;
  private checked = 0;
  private newest: ChainPoint | undefined;
  private broken: ChainBreak | undefined;

  constructor(private readonly unit: Unit, genesis: string, private readonly from?: Checkpoint) {
    this.prev = genesis;
  }

  /** Takes the next record; the break, once there is one (later records change nothing). */
  take(record: ChainLink): ChainBreak | undefined {
    if (this.broken !== undefined || (this.from !== undefined && this.checked === 0 && record.id < this.from.id)) return this.broken;
    const why = this.from !== undefined && this.checked === 0
      ? this.checkpointProblem(record.id === this.from.id ? record : undefined)
      : record.unreadable === true ? 'it is not a readable record'
        : record.link !== this.prev ? linkBroken(this.unit, this.prevId, record.id) : record.own ? undefined : ALTERED;
    if (why !== undefined) {
      // A checkpoint gone from the trail is named by its own id; the record found in its place came after it.
      const named = this.from !== undefined && this.checked === 0 && record.id !== this.from.id ? { id: this.from.id, time: undefined } : record;
      this.broken = { id: named.id, time: named.time, why };
      return this.broken;
    }
    this.prev = record.hash;
    this.prevId = record.id;
    this.checked += 1;
    this.newest = { id: record.id, hash: record.hash, ...(record.time === undefined ? {} : { time: record.time }) };
    return undefined;
  }

  /** After the last record: what the walk found. A checkpoint past the trail's end is a break too. */
  result(): ChainCheck {
    if (this.broken === undefined && this.from !== undefined && this.checked === 0) {
      this.broken = { id: this.from.id, time: undefined, why: this.checkpointProblem(undefined) ?? '' };
    }
    return { checked: this.checked, newest: this.newest, broken: this.broken };
  }

  private checkpointProblem(found: ChainLink | undefined): string | undefined {
    const { unit } = this;
    if (found === undefined) return `the checkpoint's ${unit} ${this.from?.id ?? ''} is missing: the trail was cut back or restored from an older backup`;
    if (found.unreadable === true) return 'it is not a readable record';
    if (this.from?.hash !== undefined && found.hash !== this.from.hash) return 'it holds another hash than the checkpoint recorded: it was replaced';
    return found.own ? undefined : ALTERED;
  }
}
