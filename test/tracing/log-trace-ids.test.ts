import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/http/logging.js';

describe('issue 15 item 3: the trace id in each log line', () => {
  it('the mixin adds trace_id and span_id, kept whole even where ten hex digits happen to be decimal; identity numbers are still scrubbed', () => {
    const lines: string[] = [];
    const traceId = '0123456789abcdef0123456789abcdef';
    const logger = createLogger('info', { write: (l: string) => void lines.push(l) }, () => ({ trace_id: traceId, span_id: '1234567890abcdef' }));
    logger.info({ patient: '191212121212' }, 'read for 191212121212');
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ trace_id: traceId, span_id: '1234567890abcdef', patient: '[REDACTED]', msg: 'read for [REDACTED]' });
  });

  it('without tracing there is no mixin and no trace fields', () => {
    const lines: string[] = [];
    createLogger('info', { write: (l: string) => void lines.push(l) }).info('hello');
    expect(JSON.parse(lines[0] ?? '{}')).not.toHaveProperty('trace_id');
  });
});
