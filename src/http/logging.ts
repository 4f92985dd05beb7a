import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { REDACTED, scrubText } from '../domain/redaction/scrub-text.js';
import { loggedPath } from './logged-path.js';

const MAX_DEPTH = 8;
// Hex the service made itself: trace ids, and the audit chain's signed head (hashes, a MAC; src/adapters/audit-chain/signed-head.ts).
const SERVICE_HEX_KEYS = new Set(['trace_id', 'span_id', 'auditHead']);
/** The keys of a line that pino's serializers (loggerOptions) turn into plain objects, after the scrub. */
const SERIALISED_KEYS = new Set(['req', 'res', 'err']);

/** An object the scrub walks: made by a literal, JSON.parse or Object.create(null). */
const isPlainObject = (v: object): boolean => {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};
const isPlain = (v: unknown): boolean => typeof v !== 'object' || v === null || Array.isArray(v) || isPlainObject(v);

/**
 * What the scrub does not walk (an instance of a class, a map, what lies deeper than MAX_DEPTH) is
 * written as pino writes it, its JSON, unless that text holds an identity number or a token: then
 * the scrubbed text stands in for it. Rare (no request line holds one), so its cost is no concern.
 */
/** A line's fields scrubbed, still an object: an instance logged as the line whose text had to be hidden stands under `logged`. */
function scrubLine(object: Record<string, unknown>): Record<string, unknown> {
  const scrubbed = scrub(object);
  return typeof scrubbed === 'object' && scrubbed !== null ? scrubbed as Record<string, unknown> : { logged: scrubbed };
}

function opaque(value: object): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[not serialisable]';
  }
  if (text === undefined) return value;
  const scrubbed = scrubText(text);
  return scrubbed === text ? value : scrubbed;
}

/**
 * Identity numbers and tokens out of every string of a log object, whatever field carries it (error
 * texts included), however spelled. Copy on write (issue 56 item 4): an object or array none of whose
 * texts changes comes back as it is, not copied, since it is written the same; one that changes is
 * copied, its own enumerable keys in their order, as a new plain object. Every request's line went
 * through a copy of each of its objects before (test/http/log-scrub.test.ts holds the two equal).
 */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return opaque(value);
  if (Array.isArray(value)) return scrubArray(value, depth);
  if (!isPlainObject(value)) return opaque(value);
  const object = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = object[k];
    // A run of ten decimal digits in such hex is chance, not a person; replacing it would break the
    // value. A request, reply or error is left to its serializer (below), which pino runs after this.
    const kept = depth === 0 && (SERVICE_HEX_KEYS.has(k) || (SERIALISED_KEYS.has(k) && !isPlain(v)));
    const scrubbed = kept ? v : scrub(v, depth + 1);
    if (out === undefined && scrubbed !== v) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j] as string] = object[keys[j] as string];
    }
    if (out !== undefined) out[k] = scrubbed;
  }
  return out ?? object;
}

function scrubArray(array: readonly unknown[], depth: number): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < array.length; i++) {
    const v = array[i];
    const scrubbed = scrub(v, depth + 1);
    if (out === undefined && scrubbed !== v) out = array.slice(0, i);
    if (out !== undefined) out.push(scrubbed);
  }
  return out ?? (array as unknown[]);
}

/**
 * pino for the service: request lines carry method, the matched route (never the path as written,
 * src/http/logged-path.ts), request id and status only; headers
 * that hold credentials or a patient's identity are redacted, and any identity number or token
 * anywhere in a line (a message, an error text, a field), percent-encoded or not, is replaced before
 * it is written (src/domain/redaction/scrub-text.ts).
 */
export function loggerOptions(level: string, mixin?: () => Record<string, string>): LoggerOptions {
  return {
    level,
    // With tracing on (src/tracing/start-tracing.ts): the trace and span ids of the request a line belongs to.
    ...(mixin ? { mixin } : {}),
    // Only a top-level `headers` field can hold them: whatever a line passes as `req` is written as the
    // serializer below makes it, which has no headers. `req.headers.*` paths here made pino take every
    // request line's `req` apart and back together (issue 56 item 4; ~2 µs a line) to find nothing.
    redact: {
      paths: ['headers.authorization', 'headers["ocp-apim-subscription-key"]', 'headers.patient'],
      censor: REDACTED,
    },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string; routeOptions?: { url?: string }; is404?: boolean }) => ({ method: req.method, ...loggedPath(req), remoteAddress: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      // The serialised error has its own prototype; copy it to a plain object so its texts are scrubbed too.
      err: (err: Error) => scrub({ ...stdSerializers.err(err) }),
    },
    formatters: { log: scrubLine },
    hooks: {
      logMethod(args, method) {
        // pino hands each call its own array of the arguments: scrubbed in place, not copied.
        for (let i = 0; i < args.length; i++) {
          const a: unknown = args[i];
          if (typeof a === 'string') args[i] = scrubText(a);
        }
        method.apply(this, args);
      },
    },
  };
}

const LOG_BUFFER_BYTES = 4096;
const LOG_FLUSH_INTERVAL_MS = 1000;

/**
 * Without a stream, lines go to stdout through a buffered asynchronous destination: one write(2)
 * per 4 KiB of lines instead of one blocking write per line (a tenth of the CPU of a small read
 * when measured), and at least once a second so a quiet service's lines still show promptly. pino
 * flushes what is left when the process exits; a SIGKILL loses at most that second. The audit
 * trail, which must not lose anything, is written durably elsewhere.
 */
export function createLogger(level: string, stream?: DestinationStream, mixin?: () => Record<string, string>): Logger {
  if (stream) return pino(loggerOptions(level, mixin), stream);
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // Only a destination already closed at exit refuses a flush; its lines were written then.
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return pino(loggerOptions(level, mixin), destination);
}
