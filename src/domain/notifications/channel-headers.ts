/**
 * `channel.header` (docs/notifications.md): the `Name: value` lines a subscription asks to be sent
 * with each notification, often the receiver's own credential. Checked once, at creation, so that no
 * line can split a request (CR, LF, NUL), name what the service or the connection decides (Host,
 * Content-Length, Content-Type, hop-by-hop headers, Proxy-*), send a credential's field twice, or grow without bound. A refusal names
 * the line, never its value.
 */

export const MAX_HEADER_LINES = 10;
export const MAX_HEADER_LINE_LENGTH = 1024;

export type HeaderVerdict = { allowed: true; headers: Array<readonly [string, string]> } | { allowed: false; problem: string };

/** Fields of one value (RFC 9110 §11.6.2 and RFC 6265's Cookie, one line over HTTP/1.1) a receiver's credential may be sent in. */
const SINGLE_VALUED = new Set(['authorization', 'cookie']);

/** RFC 9110 §5.6.2's token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect']);
// eslint-disable-next-line no-control-regex -- refusing them is the point
const SPLITS_A_REQUEST = /[\r\n\u0000]/;
// eslint-disable-next-line no-control-regex -- refusing them is the point
const CONTROL = /[\u0001-\u0008\u000b-\u001f\u007f]/;

/** A header the service sets itself, or one of the connection's (RFC 9110 §7.6.1), which no subscription may name. */
export function isReservedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED.has(lower) || lower.startsWith('proxy-');
}

function lineProblem(line: string): string | readonly [string, string] {
  if (line.length > MAX_HEADER_LINE_LENGTH) return `must be at most ${MAX_HEADER_LINE_LENGTH} characters`;
  if (SPLITS_A_REQUEST.test(line)) return 'must not hold CR, LF or NUL';
  if (CONTROL.test(line)) return 'must not hold a control character other than a tab';
  const colon = line.indexOf(':');
  if (colon <= 0) return 'must be written Name: value';
  const name = line.slice(0, colon);
  const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (!TOKEN.test(name)) return 'must have a header name of letters, digits and !#$%&\'*+-.^_`|~ only (an HTTP token), directly before the colon';
  if (isReservedHeader(name)) return `names ${name}, which the service or the connection sets, never a subscription`;
  if (value === '') return 'must have a value after the colon';
  if (!/^[\t\x20-\x7e]*$/.test(value)) return 'must have a value of printable ASCII';
  return [name, value];
}

/**
 * The lines as [name, value] pairs in order, or the first line's problem, for a 400 naming channel.header.
 * `kept`: lines a subscription already holds, checked again before each delivery: a credential's field
 * given twice, refused since 1cdc28f3, is sent as it was taken then, never dropped with every other line
 * (re-review helper-165, F5: a subscription made before lost all its headers without a word).
 */
export function checkChannelHeaders(lines: readonly string[], kept: 'kept' | 'new' = 'new'): HeaderVerdict {
  if (lines.length > MAX_HEADER_LINES) return { allowed: false, problem: `channel.header may have at most ${MAX_HEADER_LINES} lines` };
  const headers: Array<readonly [string, string]> = [];
  for (const [i, line] of lines.entries()) {
    const checked = lineProblem(line);
    if (typeof checked === 'string') return { allowed: false, problem: `channel.header line ${i + 1} ${checked}` };
    // A field of one value sent twice breaks RFC 9110 §5.3, and which a receiver takes is its HTTP stack's
    // choice (hostile review helper-161, F6); a list's repeats are one value, comma-joined, and are kept.
    const name = checked[0].toLowerCase();
    if (kept === 'new' && SINGLE_VALUED.has(name) && headers.some(([other]) => other.toLowerCase() === name)) {
      return { allowed: false, problem: `channel.header line ${i + 1} names ${checked[0]} again, which holds one value: send it once` };
    }
    headers.push(checked);
  }
  return { allowed: true, headers };
}
