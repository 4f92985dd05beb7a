import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';
import { identityNumbersIn, leaksInLine, tokensIn } from '../support/log-grep.js';
import { FOUND_PATHS, identityPath } from '../support/identity-paths.js';
import { assertProperty } from '../support/seeds.js';

describe('the service logger', () => {
  it('replaces identity numbers in messages, fields, nested objects and error texts', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (l: string) => void lines.push(l) });
    log.info('lookup for 191212121212 done');
    log.warn({ detail: { patient: '19121212-1212', list: ['201701012393', 'ok'] } }, 'delegation');
    log.error({ err: new Error('Patient 198112189876 finns inte (121212-1212)') }, 'failed');
    log.info({ req: { method: 'GET', url: '/x/191212121212?access_token=abc.def.ghi' } }, 'request');
    const out = lines.join('\n');
    for (const id of ['191212121212', '19121212-1212', '201701012393', '198112189876', '121212-1212', 'abc.def.ghi']) {
      expect(out).not.toContain(id);
    }
    expect(out).toContain('[REDACTED]');
    expect(out).toContain('"stack"');
    // Issue 44 item 11: a request no route matched is the marker and its length, never its path.
    expect(JSON.parse(lines[3] ?? '{}').req).toEqual({ method: 'GET', path: '(unmatched path)', pathLength: expect.any(Number) });
  });

  it('leaves timestamps, ports and other numbers alone', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (l: string) => void lines.push(l) });
    log.info({ port: 8080, epoch: 1795254626355, took: '12345' }, 'listening on 127.0.0.1:8080');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ port: 8080, epoch: 1795254626355, took: '12345', msg: 'listening on 127.0.0.1:8080' });
  });
});

describe('issue 34 item 6: identity numbers and tokens however a path or a text spells them (threats 34 and 50)', () => {
  const logged = (write: (log: ReturnType<typeof createLogger>) => void): string[] => {
    const lines: string[] = [];
    write(createLogger('info', { write: (l: string) => void lines.push(l) }));
    return lines;
  };

  it('the grep of these tests reads every form: it finds the number and the token in each path as sent', () => {
    for (const path of FOUND_PATHS) expect([path, identityNumbersIn(path).length + tokensIn(path).length > 0]).toEqual([path, true]);
  });

  it('scrubs every path the review found, in the request line, in a message and in an error text', () => {
    const leaking = FOUND_PATHS.filter((path) => logged((log) => {
      log.info({ req: { method: 'GET', url: `${path}?q=1` } }, 'request completed');
      log.warn(`no route for ${path}`);
      log.error({ err: new Error(`refused ${path}`), detail: { path } }, 'failed');
    }).some((line) => leaksInLine(line).length > 0));
    expect(leaking).toEqual([]);
  });

  it('scrubs a seeded fuzz of paths holding valid identity numbers in random encodings, separators and prefixes (property)', async () => {
    await assertProperty(fc.property(identityPath(), ({ id, path, method }) => {
      const lines = logged((log) => {
        log.info({ req: { method, url: path } }, 'request completed');
        log.error({ err: new Error(`EHR call ${method} ${path} failed`) }, 'request failed');
      });
      expect(lines.flatMap((line) => leaksInLine(line, [id]))).toEqual([]);
    }), { seeds: [34_50, 3451, 3452], numRuns: 1000 });
  });

  it('leaves text that holds no number or token exactly as it was', () => {
    const lines = logged((log) => log.info({ path: '/patients/appointments/', at: '2026-11-23T10:00:00.000Z', id: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42' }, '100% done'));
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ path: '/patients/appointments/', at: '2026-11-23T10:00:00.000Z', id: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42', msg: '100% done' });
  });
});
