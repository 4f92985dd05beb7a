/**
 * Threat 34 and 50 of docs/threat-model.md: what a log line or a span may not hold, looked for as a
 * person reading the text would read it. Written from the contract, not from src/: a number hidden by
 * percent-encoding (`%31%39…`, `%2531`), by a fullwidth form, by an invisible character or by a
 * separator inside it is still that number, so every text is searched raw and decoded.
 */
import { canonicalIdentity } from '../security/support/oracles.js';

const MAX_ROUNDS = 64;

/** Every %XX undone, as bytes read as UTF-8 (what does not decode stays as it was), repeated until nothing changes. */
export function percentDecoded(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = current.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      const bytes = Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16));
      return new TextDecoder('utf-8').decode(bytes);
    });
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** The text, and the text as read: decoded, fullwidth and other compatibility digits folded, invisible characters gone. */
export function readings(text: string): string[] {
  const decoded = percentDecoded(text).normalize('NFKC');
  return [text, decoded, decoded.replace(/\p{Cf}/gu, '').replace(/\p{Cc}/gu, ' ')];
}

/**
 * A valid personal identity or coordination number (12 digits: a real date, the day maybe +60, Luhn) of
 * someone born 1800–2099: the service's rule takes any year from 1800, but a person's number in a log is
 * one of these, and a random hex id (a UUID's last 12 characters) would otherwise look like one now and then.
 */
export function isIdentityNumber(twelve: string): boolean {
  return /^(?:18|19|20)\d{10}$/.test(twelve) && canonicalIdentity(twelve) !== undefined;
}

/**
 * Every valid identity number in `text`, in any reading: digits joined across single characters that are
 * neither letters nor digits (a hyphen, a space, a dot, a quote), any 12 in a row of a longer run included;
 * and each of the `known` numbers (12 digits) whose 10-digit form is there too.
 */
export function identityNumbersIn(text: string, known: readonly string[] = []): string[] {
  const found = new Set<string>();
  for (const reading of readings(text)) {
    for (const [run] of reading.matchAll(/\d(?:[^\p{L}\p{N}]?\d)*/gu)) {
      const digits = run.replace(/\D/g, '');
      for (let i = 0; i + 12 <= digits.length; i++) if (isIdentityNumber(digits.slice(i, i + 12))) found.add(digits.slice(i, i + 12));
      for (const id of known) if (digits.includes(id.slice(2))) found.add(id);
    }
  }
  return [...found];
}

/** JWT-shaped text (a base64url JSON header, `eyJ…`, with or without its payload and signature) in any reading. */
export function tokensIn(text: string): string[] {
  return [...new Set(readings(text).flatMap((r) => [...r.matchAll(/eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)*/g)].map((m) => m[0])))];
}

/** Every string of a JSON value (keys too), numbers left out: a timestamp or a duration is no person's number. */
export function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out);
    }
  }
  return out;
}

/** What a log line holds that it must not: identity numbers and tokens in any of its strings, as read. */
export function leaksInLine(line: string, known: readonly string[] = []): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = line;
  }
  return stringsOf(parsed).flatMap((s) => [...identityNumbersIn(s, known), ...tokensIn(s)]);
}
