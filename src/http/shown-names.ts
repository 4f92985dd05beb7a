/**
 * The names a refusal shows back (threat 57 of docs/threat-model.md): a field, a body member's path, a
 * FHIR element's member. Shown as the caller sent them, so a person finds what to fix, except that no
 * refusal repeats a person's number, however it is split across names and indices, and no character
 * reaches the caller that a terminal or a page would act on rather than show.
 */
import { mayShowBack } from '../domain/redaction/shown-value.js';

// Control characters, line and paragraph separators, bidirectional controls (an override shows text
// reversed) and lone surrogates: shown as \uXXXX, never sent raw.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NAME_LIMIT = 64;
/** A path deeper than this shows its end: where the fault is. */
const PATH_LIMIT = 200;

/** Said in place of a name, or a path, that holds a person's number. */
const NAME_WITH_NUMBER = '(a name holding an identity number)';

/** `name` as sent, cut at 64 characters (never within one), unshowable characters as \uXXXX; with no check for a number. */
export function escapedName(name: string): string {
  const chars = [...name];
  const shown = chars.slice(0, NAME_LIMIT).join('').replace(UNSHOWABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return chars.length > NAME_LIMIT ? `${shown}…` : shown;
}

/** `shown` if neither it nor what it shows holds a person's number (an escape's digits too), else undefined. */
export const unlessNumber = (raw: string, shown: string): string | undefined => (mayShowBack(raw) && mayShowBack(shown) ? shown : undefined);

/** Said in place of a path whose names and indices could be read together as a person's number. */
const PATH_WITH_NUMBER = '(a path that may hold an identity number)';

/**
 * A path of names and array indices, `provision.actor[0].reference`, as a refusal shows it: each name
 * escaped, the whole at most 200 characters, keeping its end. Not shown where a reader could take a
 * person's number from it: in its names read together (`{"197305":{"242385":…}}`), or, since a
 * reader may read an index's digits or pass over them (`19730524[0].2385`), wherever the path holds
 * ten digits or more in all; `withheld` is said in its place.
 */
export function shownPath(path: readonly (string | number)[], withheld = path.length === 1 ? NAME_WITH_NUMBER : PATH_WITH_NUMBER): string {
  // One name, as sent (`$where` stays `$where`), unless it holds a person's number.
  if (path.length === 1 && typeof path[0] === 'string') return unlessNumber(path[0], escapedName(path[0])) ?? withheld;
  const raw = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  const parts = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${escapedName(p)}`));
  let shown = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i] ?? '';
    if (shown.length + part.length > PATH_LIMIT) {
      shown = `…${shown.replace(/^\./, '')}`;
      break;
    }
    shown = part + shown;
  }
  const digits = (text: string): number => text.match(/\p{Nd}/gu)?.length ?? 0;
  return (digits(raw) < 10 && digits(shown) < 10 ? unlessNumber(raw, shown) : undefined) ?? withheld;
}
