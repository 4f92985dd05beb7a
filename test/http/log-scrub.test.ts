/**
 * Issue 56 item 4: the cheaper log line (the scrub copies only what it changes; no `req.headers`
 * redaction paths) writes every line byte for byte as the logger before it did. The logger before is
 * kept here, as it was, as the oracle.
 */
import fc from 'fast-check';
import { pino, stdSerializers, type LoggerOptions } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACTED, scrubText } from '../../src/domain/redaction/scrub-text.js';
import { loggedPath } from '../../src/http/logged-path.js';
import { createLogger, scrub } from '../../src/http/logging.js';
import { JWT, validIdentityNumber } from '../support/identity-paths.js';
import { assertProperty } from '../support/seeds.js';

const SERVICE_HEX_KEYS = new Set(['trace_id', 'span_id', 'auditHead']);

/** The scrub before issue 56 item 4: every plain object and array copied. */
function scrubBefore(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (depth >= 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubBefore(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = depth === 0 && SERVICE_HEX_KEYS.has(k) ? v : scrubBefore(v, depth + 1);
  return out;
}

/** src/http/logging.ts's options before issue 56 item 4. */
const optionsBefore: LoggerOptions = {
  level: 'info',
  redact: {
    paths: [
      'req.headers.authorization', 'req.headers["ocp-apim-subscription-key"]', 'req.headers.patient',
      'headers.authorization', 'headers["ocp-apim-subscription-key"]', 'headers.patient',
    ],
    censor: REDACTED,
  },
  serializers: {
    req: (req: { method?: string; url?: string; ip?: string; routeOptions?: { url?: string }; is404?: boolean }) => ({ method: req.method, ...loggedPath(req), remoteAddress: req.ip }),
    res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
    err: (err: Error) => scrubBefore({ ...stdSerializers.err(err) }),
  },
  formatters: { log: (object) => scrubBefore(object) as Record<string, unknown> },
  hooks: {
    logMethod(args, method) {
      method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
    },
  },
};

/** The lines each logger writes for `write`, the time of each made the same. */
function bothWrite(write: (log: pino.Logger) => void): { now: string[]; before: string[] } {
  const now: string[] = [];
  const before: string[] = [];
  write(createLogger('info', { write: (l: string) => void now.push(l) }).child({ reqId: 'a1b2' }));
  write(pino(optionsBefore, { write: (l: string) => void before.push(l) }).child({ reqId: 'a1b2' }));
  const untimed = (l: string): string => l.replace(/"time":\d+/, '"time":0');
  return { now: now.map(untimed), before: before.map(untimed) };
}

/** A fastify request and reply as the request line sees them: class instances, not plain objects. */
class Request {
  constructor(readonly method: string, readonly url: string, readonly routeOptions: { url?: string }, readonly headers: Record<string, string>, readonly is404 = false) {}
  readonly ip = '127.0.0.1';
}

describe('issue 56 item 4: the cheaper log line is the line before it', () => {
  it('writes the request line, an error, headers and nested fields as before, byte for byte', () => {
    const id = '191212121212';
    // One error for both loggers: its stack names where it was made.
    const err = new Error(`Patient ${id} not found (${JWT})`);
    const { now, before } = bothWrite((log) => {
      const headers = { authorization: `Bearer ${JWT}`, 'ocp-apim-subscription-key': 'k', patient: id };
      log.info({ req: new Request('GET', '/patients/appointments/', { url: '/patients/appointments/' }, headers), res: { statusCode: 200 }, responseTime: 1.25 }, 'request completed');
      log.info({ req: new Request('GET', `/x/${id}/`, {}, headers, true), res: { statusCode: 404 }, responseTime: 0.5, callerRequestId: 'abc' }, 'request completed');
      log.info({ req: { method: 'GET', url: `/x/${id}`, headers }, res: { statusCode: 200 } }, 'request completed');
      log.warn({ headers, detail: { list: [id, 'ok', { deeper: [`19121212-1212 and ${JWT}`] }], clean: { a: 1, b: ['x'] } } }, `lookup for ${id}`);
      log.error({ err, trace_id: '0123456789abcdef0123456789abcdef' }, 'failed');
      const sparse: unknown[] = [1];
      sparse[2] = '191212121212';
      log.info({ sparse, none: undefined, nested: { a: { b: { c: { d: { e: { f: { g: 'h' } } } } } } } }, 'deep');
    });
    expect(now).toEqual(before);
    expect(now.join('')).not.toContain(id);
    expect(now.join('')).not.toContain(JWT.slice(0, 30));
  });

  it('hides an identity number or a token deeper than the scrub walks, in an instance of a class or an object of no prototype, where the logger before wrote it', () => {
    const id = '191212121212';
    class Lookup { constructor(readonly patient: string, readonly token: string) {} }
    const deep = { a: { b: { c: { d: { e: { f: { g: { h: { i: id } } } } } } } } };
    const { now, before } = bothWrite((log) => {
      log.info({ nested: deep }, 'deep');
      log.warn({ lookup: new Lookup(id, JWT), list: [new Lookup('x', 'y')] }, 'an instance');
      log.info({ at: new Date(0), map: new Map([[id, 1]]) }, 'written as before');
      const bare = Object.create(null) as Record<string, unknown>;
      bare.token = JWT;
      log.info({ bare }, 'an object of no prototype');
    });
    expect(before.slice(0, 2).join('')).toContain(id);
    expect(before[3]).toContain(JWT.slice(0, 30));
    expect(now.slice(0, 2).join('')).not.toContain(id);
    expect(now.join('')).not.toContain(JWT.slice(0, 30));
    // An instance with nothing to hide is written as pino writes it; so is one that only holds something else.
    expect(JSON.parse(now[1] ?? '{}').list).toEqual([{ patient: 'x', token: 'y' }]);
    expect(now[2]).toBe(before[2]);
  });

  it('writes any object of texts, numbers and identity numbers as before (property)', async () => {
    const text = fc.oneof(fc.string(), validIdentityNumber(), fc.constant(JWT), fc.constant('0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42'));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), tie('tree'), { maxKeys: 4, noNullPrototype: true })),
    }));
    // Objects of a null prototype apart: the logger before wrote them unscrubbed (the test below).
    await assertProperty(fc.property(fc.dictionary(fc.string({ maxLength: 8 }), tree, { maxKeys: 5, noNullPrototype: true }), text, (fields, message) => {
      const { now, before } = bothWrite((log) => log.info(fields, message));
      expect(now).toEqual(before);
    }), { seeds: [56_4, 5641, 5642], numRuns: 600 });
  });

  it('gives back unchanged an object none of whose texts changes, and copies one whose text does', () => {
    const clean = { a: 'x', b: [1, 'y', { c: 'z' }] };
    expect(scrub(clean)).toBe(clean);
    const dirty = { a: 'x', b: [1, '191212121212'] };
    const scrubbed = scrub(dirty) as { a: string; b: unknown[] };
    expect(scrubbed).not.toBe(dirty);
    expect(scrubbed).toEqual({ a: 'x', b: [1, REDACTED] });
    expect(dirty.b[1]).toBe('191212121212');
  });
});
