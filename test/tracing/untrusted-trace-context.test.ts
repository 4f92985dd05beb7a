import { context, defaultTextMapGetter, defaultTextMapSetter, propagation, ROOT_CONTEXT, trace, TraceFlags, type TextMapPropagator } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { describe, expect, it } from 'vitest';
import { linkCallerSpan, OutboundTraceContextPropagator } from '../../src/tracing/untrusted-trace-context.js';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const OURS = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

/** threat 46 of docs/threat-model.md#found-by-independent-review, without a collector: the end-to-end proof is test/e2e/tracing.e2e.test.ts. */
describe('issue 20 item 5c: the service\'s propagator and the link to a caller\'s span', () => {
  const propagator = new OutboundTraceContextPropagator();

  it('issue 20 item 5c: extracts nothing from a caller: no parent span context, no baggage', () => {
    const carrier = { traceparent: `00-${CALLER_TRACE}-${CALLER_SPAN}-01`, tracestate: 'leak=x', baggage: 'pin=191212121212' };
    // Called as @fastify/otel calls the global propagator: with the request headers and a getter.
    const asInstalled: TextMapPropagator = propagator;
    const extracted = asInstalled.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
    expect(extracted).toBe(ROOT_CONTEXT);
    expect(trace.getSpanContext(extracted)).toBeUndefined();
    expect(propagation.getBaggage(extracted)).toBeUndefined();
  });

  it('issue 20 item 5c: injects our own traceparent and nothing of any baggage in the context', () => {
    const withBaggage = propagation.setBaggage(trace.setSpanContext(ROOT_CONTEXT, OURS), propagation.createBaggage({ pin: { value: '191212121212' } }));
    const carrier: Record<string, string> = {};
    propagator.inject(withBaggage, carrier, defaultTextMapSetter);
    expect(carrier).toEqual({ traceparent: `00-${OURS.traceId}-${OURS.spanId}-01` });
    expect(propagator.fields()).not.toContain('baggage');
  });

  it('issue 20 item 5c: links the request span to a well-formed caller traceparent (ids only), and to nothing else', () => {
    const tracer = new tracing.BasicTracerProvider().getTracer('test');
    const linksOf = (traceparent: string | string[] | undefined): unknown[] => {
      const span = tracer.startSpan('request', {}, context.active()) as unknown as tracing.ReadableSpan & Parameters<typeof linkCallerSpan>[0];
      linkCallerSpan(span, traceparent);
      return span.links.map((l) => l.context);
    };
    expect(linksOf(`00-${CALLER_TRACE}-${CALLER_SPAN}-00`)).toEqual([{ traceId: CALLER_TRACE, spanId: CALLER_SPAN, traceFlags: 0, isRemote: true }]);
    for (const bad of [undefined, '', 'garbage', `00-${'0'.repeat(32)}-${CALLER_SPAN}-01`, `00-${CALLER_TRACE}-${CALLER_SPAN}-01-extra`, [`00-${CALLER_TRACE}-${CALLER_SPAN}-01`]]) {
      expect(linksOf(bad)).toEqual([]);
    }
  });
});
