/**
 * Redacts every span just before it ends (`onEnding`, while it can still be changed), whichever
 * instrumentation made it and whenever an attribute was set, so the exporting processor after it
 * only ever sees redacted spans.
 */
import type { Context } from '@opentelemetry/api';
import type { tracing } from '@opentelemetry/sdk-node';
import { redactAttributesInPlace, redactText } from './redact-span.js';

type Span = tracing.Span;

export class RedactingSpanProcessor implements tracing.SpanProcessor {
  onStart(_span: Span, _parentContext: Context): void {
    // Attributes may still be added after start; everything is redacted in onEnding.
  }

  onEnding(span: Span): void {
    const name = redactText(span.name);
    if (name !== span.name) span.updateName(name);
    redactAttributesInPlace(span.attributes);
    for (const event of span.events) {
      if (event.attributes !== undefined) redactAttributesInPlace(event.attributes);
    }
    if (span.status.message !== undefined) span.status.message = redactText(span.status.message);
  }

  onEnd(): void {
    // Redaction happened in onEnding.
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
