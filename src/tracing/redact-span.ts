/**
 * What may leave the process in a span (THREATS: personal data in telemetry). Traces go to a
 * collector that is not the audit trail and is seldom protected like it, so a span carries no
 * identity number, token or subscription key: query strings (where a subscription key may ride,
 * docs/contract.md#credentials) are cut from URLs, header attributes and parameters are dropped, stack traces are
 * dropped, and every other text has identity numbers and JWT-shaped strings replaced, as in the log
 * lines, percent-encoded or not (`url.path` of a 404 holds what the caller typed).
 */
import type { AttributeValue, Attributes } from '@opentelemetry/api';
import { scrubText } from '../domain/redaction/scrub-text.js';

const URL_KEYS = new Set(['url.full', 'url.path', 'http.url', 'http.target', 'url.original']);
const DROPPED = /^(?:url\.query$|http\.(?:request|response)\.header\.|db\.query\.parameter\.|db\.statement\.parameters$|exception\.stacktrace$)/;

/** The log's rules (src/domain/redaction/scrub-text.ts): identity numbers and tokens, however a path spells them. */
export const redactText = scrubText;

/** A URL or path without its query and fragment, with identities redacted. */
const redactUrl = (text: string): string => redactText(text.replace(/[?#].*$/s, ''));

function redactValue(key: string, value: AttributeValue): AttributeValue {
  const clean = URL_KEYS.has(key) ? redactUrl : redactText;
  if (typeof value === 'string') return clean(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? clean(v) : v)) as AttributeValue;
  return value;
}

/** The attributes as they may be exported: undefined for a key that must go entirely. */
export function redactAttribute(key: string, value: AttributeValue | undefined): AttributeValue | undefined {
  if (value === undefined || DROPPED.test(key)) return undefined;
  return redactValue(key, value);
}

/** Rewrites `attributes` in place (spans and their events are redacted just before they end). */
export function redactAttributesInPlace(attributes: Attributes): void {
  for (const [key, value] of Object.entries(attributes)) {
    const clean = redactAttribute(key, value);
    if (clean === undefined) delete attributes[key];
    else if (clean !== value) attributes[key] = clean;
  }
}
