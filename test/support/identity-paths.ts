/**
 * Request paths that carry a valid identity number, written as a client, a fuzzer or an attacker
 * might: percent-encoded once or more, in fullwidth digits, with invisible characters or separators
 * inside, with digits, quotes or spaces around it (threat 50 of docs/threat-model.md). Every path is
 * one a real socket would carry (printable ASCII), so the app sees what a log would be shown.
 */
import fc from 'fast-check';
import { withCheckDigit } from '../security/support/oracles.js';

/** A JWT-shaped token of no issuer (its payload names 191212121212). */
export const JWT = 'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJwYXRpZW50IjoiMTkxMjEyMTIxMjEyIiwic2NvcGUiOiJ1c2VyL0FwcG9pbnRtZW50LXJlYWQifQ.'
  + 'c2lnbmF0dXJlLW9mLWEtdG9rZW4tdGhhdC1tdXN0LW5vdC1iZS1sb2dnZWQtMDEyMzQ1Njc4OQ';
const eachDigit = (digits: string, encode: (c: string) => string): string => [...digits].map(encode).join('');
const pct = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase()}`;

/** The paths the review found logged verbatim (threat 50 of docs/threat-model.md), and their kin; none decodes to a route. */
export const FOUND_PATHS = [
  '/x/%20191212121212', '/fhir/Patient/%40191212121212', '/x/%22191212121212%22', '/x/19121212%2D1212',
  `/x/${eachDigit('191212121212', pct)}`, `/x/${eachDigit('191212121212', (c) => `%25${c.charCodeAt(0).toString(16)}`)}`,
  `/x/${eachDigit('191212121212', (c) => `%2525${c.charCodeAt(0).toString(16)}`)}`, '/patienas/appointments/2015062198471',
  '/x/5191212121212', '/x/1912121212120', '/x/%EF%BC%91%EF%BC%99%EF%BC%91%EF%BC%92%EF%BC%91%EF%BC%92%EF%BC%91%EF%BC%92%EF%BC%91%EF%BC%92%EF%BC%91%EF%BC%92',
  '/x/1912%E2%80%8B12121212', '/x/19121212%E2%80%931212', '/x/19121212%201212', '/x/%E0%A4191212121212%ZZ', '/x/%C0191212121212',
  '/x/%0d%0a191212121212', `/x/${JWT}`, `/x/${JWT.split('.')[0]}`, `/x/Bearer%20${JWT}`,
];

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** A valid personal identity or coordination number, 12 digits, born 1800–2099. */
export const validIdentityNumber = (): fc.Arbitrary<string> => fc.record({
  year: fc.integer({ min: 1800, max: 2099 }), month: fc.integer({ min: 1, max: 12 }), day: fc.integer({ min: 1, max: 28 }),
  coordination: fc.boolean(), serial: fc.integer({ min: 0, max: 999 }),
}).map(({ year, month, day, coordination, serial }) => {
  const first11 = `${year}${pad(month, 2)}${pad(coordination ? day + 60 : day, 2)}${pad(serial, 3)}`;
  return withCheckDigit(first11);
});

/** How one character is spelled in a path. */
const SPELLINGS: ReadonlyArray<(c: string) => string> = [
  (c) => c,
  (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  (c) => `%25${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  (c) => `%2525${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  // A fullwidth digit (U+FF10…), as its UTF-8 bytes.
  (c) => (/\d/.test(c) ? `%EF%BC%${(0x90 + Number(c)).toString(16).toUpperCase()}` : c),
  // A zero-width space before it.
  (c) => `%E2%80%8B${c}`,
];

/** The number as written: 12 digits or the 10-digit form, a separator or none before the last four. */
const written = (id: string): fc.Arbitrary<string> => fc.record({
  ten: fc.boolean(),
  separator: fc.constantFrom('', '', '-', '+', '%20', '.', '%2D', '%E2%80%93', '%09'),
}).map(({ ten, separator }) => {
  const digits = ten ? id.slice(2) : id;
  return `${digits.slice(0, -4)}${separator}${digits.slice(-4)}`;
});

/** Each character of `text` that is not already part of an escape spelled one of the ways above, chosen per character. */
const spelled = (text: string): fc.Arbitrary<string> => {
  const pieces = text.match(/%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2})*|./g) ?? [];
  return fc.tuple(...pieces.map((piece) => (piece.startsWith('%') ? fc.constant(piece) : fc.constantFrom(...SPELLINGS).map((spell) => spell(piece)))))
    .map((parts) => parts.join(''));
};

const PREFIXES = ['', '', '%20', '@', '%40', '%22', '=', 'id=', '0', '7', '42', 'x', '-', '.', '%0A', '+', '%2B', ';', 'Bearer%20'];
const SUFFIXES = ['', '', '0', '3', '%22', '.json', '/', '%00', '%20', '-', 'x'];
const SHAPES: ReadonlyArray<(n: string) => string> = [
  (n) => `/x/${n}`, (n) => `/patients/${n}/records`, (n) => `/patients/appointments/${n}`, (n) => `/fhir/Patient/${n}`,
  (n) => `/patienas/appointments/${n}`, (n) => `/${n}`, (n) => `/patients/appointments/;id=${n}`, (n) => `/patients/journalnotes/${n}/`,
];
const QUERIES = ['', '?a=1', '?patient=191212121212', '?subscription-key=abc', '?fromDateTime=2025-01-01T00:00:00', '?access_token=x.y.z'];
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

export interface IdentityPath {
  /** The number the path carries, canonical. */
  id: string;
  path: string;
  method: (typeof METHODS)[number];
}

/** A request path carrying a valid identity number, spelled at random, with a random method and query. */
export const identityPath = (): fc.Arbitrary<IdentityPath> => validIdentityNumber().chain((id) => fc.record({
  id: fc.constant(id),
  number: written(id).chain(spelled),
  prefix: fc.constantFrom(...PREFIXES),
  suffix: fc.constantFrom(...SUFFIXES),
  shape: fc.constantFrom(...SHAPES),
  query: fc.constantFrom(...QUERIES),
  method: fc.constantFrom(...METHODS),
})).map(({ id, number, prefix, suffix, shape, query, method }) => ({ id, path: shape(`${prefix}${number}${suffix}`) + query, method }));
