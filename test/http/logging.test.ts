import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';

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
    expect(JSON.parse(lines[3] ?? '{}').req).toEqual({ method: 'GET', path: '/x/[REDACTED]' });
  });

  it('leaves timestamps, ports and other numbers alone', () => {
    const lines: string[] = [];
    const log = createLogger('info', { write: (l: string) => void lines.push(l) });
    log.info({ port: 8080, epoch: 1795254626355, took: '12345' }, 'listening on 127.0.0.1:8080');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ port: 8080, epoch: 1795254626355, took: '12345', msg: 'listening on 127.0.0.1:8080' });
  });
});
