import type { ChainKey } from '../audit-chain/chain-keys.js';

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

/** What a signed head (docs/operations.md#signed-heads), its MAC already verified, says a record held when it was signed. */
export interface HeadClaim {
  id: number;
  hash: string;
  /** When it was signed (ISO-8601), to name it in a break. */
  at: string;
}

/** How many records were checked under each key id, in the order the ids first appear. */
export type KeyUse = Array<{ key: string; records: number }>;

export interface ChainCheck {
  /** Records checked, the checkpoint's included. */
  checked: number;
  /** The newest record that holds (before the break, if there is one). */
  newest: ChainPoint | undefined;
  broken: ChainBreak | undefined;
  /** The file ends in a line still being written, or torn by a crash: left unchecked. */
  unfinishedTail?: boolean;
  /** Records checked that carry no key id: written before the chain had a key, so they come first. */
  unkeyed: number;
  keyed: KeyUse;
  /** Signed heads whose record was found holding the hash they name (a head of an empty trail holds for any). */
  headsMatched: number;
  /** Signed heads of records before the checkpoint, which the check takes on trust: not compared. */
  headsBeforeCheckpoint: number;
}

/** Where a walk begins and what it is compared with besides the chain itself. */
export interface WalkOptions {
  from?: Checkpoint | undefined;
  heads?: readonly HeadClaim[];
}

/** A check of a store's chain: the walk's options and the keys its keyed records are verified with. */
export interface ChainCheckOptions extends WalkOptions {
  keys?: ReadonlyMap<string, ChainKey>;
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
  /** Its hash (its MAC, for a keyed record) recomputed from its content and its own link matches. */
  own: boolean;
  /** Not a record at all (a file's line that is no JSON object). */
  unreadable?: boolean;
  /** The id of the key it names; undefined for a record written before the chain had a key. */
  key?: string | undefined;
  /** It names a key none of the key files given holds, so `own` could not be computed. */
  unknownKey?: boolean;
  /** A file's line that is not spelled as the service writes its lines, though it may parse to a record that matches its hash. */
  respelled?: true;
}

const RESPELLED = 'it is not spelled as the service writes its lines: it was altered';
const UNKNOWN_KEY = (key: string): string => `it is keyed with key id ${JSON.stringify(key)}, which no key file given holds: give the file that holds that key, or the record was forged`;
const UNKEYED_AFTER_KEYED = 'it carries no key id after keyed records: it was rewritten without the chain key';
const UNKEYED_UNVOUCHED = 'it carries no key id, and no keyed record, signed head or checkpoint after it vouches for it: '
  + 'the trail from here was written anew without the chain key, or the service writing it has none';

/**
 * The chain check both stores share: records in chain order, each linked to the one before and
 * matching its own hash (its MAC under the key it names, when keyed); once a record is keyed, every
 * later one must be. From a checkpoint, the records before it are taken on trust, and the
 * checkpoint must still be there with the hash recorded. A signed head's record must hold the hash
 * the head names, and must be there at all. With a chain key given, a record without a key id
 * must be vouched for by something after it that no one without the key can make: a keyed record
 * (its MAC covers the link to it), a signed head, or the checkpoint; else anyone at the store could
 * write the whole trail anew, unkeyed from its first record, and have it pass (issue 52 item 10).
 */
export class ChainWalk {
  private prev: string;
  private prevId: number | undefined;
  private checked = 0;
  private newest: ChainPoint | undefined;
  private broken: ChainBreak | undefined;
  private unkeyed = 0;
  private readonly keyed = new Map<string, number>();
  private headsMatched = 0;
  private headsBeforeCheckpoint = 0;
  private readonly from: Checkpoint | undefined;
  private readonly heads = new Map<number, HeadClaim[]>();
  /** A chain key was given: records without a key id must be vouched for. */
  private readonly keysGiven: boolean;
  /** The ids the signed heads name, ascending, and the first of them the walk has not yet reached. */
  private readonly headIds: number[];
  private nextHead = 0;
  /** The first record without a key id that nothing after it vouches for yet, and the newest record before it. */
  private unvouched: { record: ChainBreak; before: ChainPoint | undefined } | undefined;

  constructor(private readonly unit: Unit, genesis: string, options: ChainCheckOptions = {}) {
    this.prev = genesis;
    this.from = options.from;
    this.keysGiven = (options.keys?.size ?? 0) > 0;
    for (const head of options.heads ?? []) {
      // A head of an empty trail (id 0) holds for any trail; one before the checkpoint cannot be compared.
      if (head.id === 0) this.headsMatched += 1;
      else if (head.id < (this.from?.id ?? 1)) this.headsBeforeCheckpoint += 1;
      else this.heads.set(head.id, [...(this.heads.get(head.id) ?? []), head]);
    }
    this.headIds = [...this.heads.keys()].sort((a, b) => a - b);
  }

  /** Takes the next record; the break, once there is one (later records change nothing). */
  take(record: ChainLink): ChainBreak | undefined {
    if (this.broken !== undefined || (this.from !== undefined && this.checked === 0 && record.id < this.from.id)) return this.broken;
    const passed = this.headPassedBy(record.id);
    if (passed !== undefined) {
      const { unit } = this;
      this.broken = { id: passed.id, time: undefined, why: `the signed head of ${passed.at} names ${unit} ${passed.id}, which is missing: it was removed, and the ${unit}s after it were stored over the gap` };
      return this.broken;
    }
    const why = this.from !== undefined && this.checked === 0
      ? this.checkpointProblem(record.id === this.from.id ? record : undefined)
      : record.unreadable === true ? 'it is not a readable record'
        : record.link !== this.prev ? linkBroken(this.unit, this.prevId, record.id) : this.contentProblem(record);
    if (why !== undefined) {
      // A checkpoint gone from the trail is named by its own id; the record found in its place came after it.
      const named = this.from !== undefined && this.checked === 0 && record.id !== this.from.id ? { id: this.from.id, time: undefined } : record;
      this.broken = { id: named.id, time: named.time, why };
      return this.broken;
    }
    this.prev = record.hash;
    this.prevId = record.id;
    // The checkpoint is taken on trust; a keyed record or a signed head vouches for all before it.
    const vouched = this.checked === 0 && this.from !== undefined;
    this.checked += 1;
    if (record.key === undefined) this.unkeyed += 1;
    else this.keyed.set(record.key, (this.keyed.get(record.key) ?? 0) + 1);
    const headsHere = this.heads.get(record.id)?.length ?? 0;
    this.headsMatched += headsHere;
    if (vouched || record.key !== undefined || headsHere > 0) this.unvouched = undefined;
    else this.unvouched ??= { record: { id: record.id, time: record.time, why: UNKEYED_UNVOUCHED }, before: this.newest };
    this.newest = { id: record.id, hash: record.hash, ...(record.time === undefined ? {} : { time: record.time }) };
    return undefined;
  }

  /**
   * A signed head naming a record the walk went past without meeting, `id` being the next record's: it was
   * removed. In PostgreSQL ids come from a sequence, so rows stored after a cut take later ids and link to
   * the row before it, a chain intact but for what the head says (hostile review helper-133, F1).
   */
  private headPassedBy(id: number): HeadClaim | undefined {
    const named = this.headIds[this.nextHead];
    if (named === undefined || named > id) return undefined;
    if (named === id) {
      this.nextHead += 1;
      return undefined;
    }
    return this.heads.get(named)?.[0];
  }

  /** After the last record: what the walk found. A checkpoint or a signed head past the trail's end is a break too. */
  result(): ChainCheck {
    if (this.broken === undefined && this.from !== undefined && this.checked === 0) {
      this.broken = { id: this.from.id, time: undefined, why: this.checkpointProblem(undefined) ?? '' };
    }
    const last = this.newest?.id ?? 0;
    const beyond = [...this.heads.values()].flat().filter((h) => h.id > last).sort((a, b) => b.id - a.id)[0];
    if (this.broken === undefined && beyond !== undefined) {
      const { unit } = this;
      const lost = beyond.id === last + 1 ? `${unit} ${beyond.id} was removed` : `${unit}s ${last + 1} to ${beyond.id} were removed`;
      this.broken = { id: last + 1, time: undefined, why: `the signed head of ${beyond.at} names ${unit} ${beyond.id}, and the trail ends before it: ${lost}` };
    }
    if (this.broken === undefined && this.keysGiven && this.unvouched !== undefined) {
      this.broken = this.unvouched.record;
      this.newest = this.unvouched.before;
    }
    return {
      checked: this.checked, newest: this.newest, broken: this.broken, unkeyed: this.unkeyed,
      keyed: [...this.keyed].map(([key, records]) => ({ key, records })), headsMatched: this.headsMatched, headsBeforeCheckpoint: this.headsBeforeCheckpoint,
    };
  }

  /** Why a record that links to the one before still breaks the chain: its key, its own hash, or a signed head. */
  private contentProblem(record: ChainLink): string | undefined {
    if (record.unknownKey === true && record.key !== undefined) return UNKNOWN_KEY(record.key);
    if (record.key === undefined && this.keyed.size > 0) return UNKEYED_AFTER_KEYED;
    if (!record.own) return ALTERED;
    if (record.respelled === true) return RESPELLED;
    const other = this.heads.get(record.id)?.find((h) => h.hash !== record.hash);
    return other === undefined ? undefined
      : `it holds another hash than the signed head of ${other.at} recorded: it, or a record before it, was rewritten after that head was signed`;
  }

  private checkpointProblem(found: ChainLink | undefined): string | undefined {
    const { unit } = this;
    if (found === undefined) return `the checkpoint's ${unit} ${this.from?.id ?? ''} is missing: the trail was cut back or restored from an older backup`;
    if (found.unreadable === true) return 'it is not a readable record';
    if (this.from?.hash !== undefined && found.hash !== this.from.hash) return 'it holds another hash than the checkpoint recorded: it was replaced';
    return this.contentProblem(found);
  }
}
