/**
 * A caller's `traceparent`, `tracestate` and `baggage` are not trusted (docs/contract.md#settings,
 * OTEL_EXPORTER_OTLP_ENDPOINT): a caller could otherwise switch tracing off for its requests
 * (`-00`), splice them into a trace of its choosing, or have its baggage (secrets, identity numbers)
 * forwarded to the EHR. So each request starts a trace of its own; the caller's span is kept only as
 * a link (its ids, never its tracestate), and only our own `traceparent` is sent on.
 */
import type { Context, Span, TextMapPropagator, TextMapSetter } from '@opentelemetry/api';
import { core } from '@opentelemetry/sdk-node';

/** Reads nothing from a carrier; writes our own W3C trace context and no baggage. Also set as the global propagator. */
export class OutboundTraceContextPropagator implements TextMapPropagator {
  private readonly w3c = new core.W3CTraceContextPropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    this.w3c.inject(context, carrier, setter);
  }

  extract(context: Context): Context {
    return context;
  }

  fields(): string[] {
    return this.w3c.fields();
  }
}

/** The caller's span, when its `traceparent` is well formed, as a link of the request's own span. */
export function linkCallerSpan(span: Span, traceparent: string | string[] | undefined): void {
  if (typeof traceparent !== 'string') return;
  const caller = core.parseTraceParent(traceparent);
  if (caller !== null) span.addLink({ context: { traceId: caller.traceId, spanId: caller.spanId, traceFlags: caller.traceFlags, isRemote: true } });
}
