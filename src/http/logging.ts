import { pino, stdSerializers, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

// 12 digits (optionally 10) with an optional separator, not inside a longer run of digits.
const IDENTITY_NUMBER = /(?<!\d)(?:(?:18|19|20)\d{6}|\d{6})[-+]?\d{4}(?!\d)/g;
const REDACTED = '[REDACTED]';
const MAX_DEPTH = 8;

const scrubText = (text: string): string => text.replace(IDENTITY_NUMBER, REDACTED);

/** Identity numbers out of every string of a log object, whatever field carries it (error texts included). */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}

/** Path without the query string: queries may carry anything a caller typed, tokens included. */
const pathOf = (url: string | undefined): string => scrubText((url ?? '').split('?')[0] ?? '');

/**
 * pino for the service: request lines carry method, path, request id and status only; headers
 * that hold credentials or a patient's identity are redacted, and any identity number anywhere in
 * a line (a message, an error text, a field) is replaced before it is written.
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["ocp-apim-subscription-key"]', 'req.headers.patient',
        'headers.authorization', 'headers["ocp-apim-subscription-key"]', 'headers.patient',
      ],
      censor: REDACTED,
    },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, path: pathOf(req.url), remoteAddress: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      // The serialised error has its own prototype; copy it to a plain object so its texts are scrubbed too.
      err: (err: Error) => scrub({ ...stdSerializers.err(err) }),
    },
    formatters: { log: (object) => scrub(object) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
}

export function createLogger(level: string, stream?: DestinationStream): Logger {
  return stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level));
}
