/**
 * OpenTelemetry for the service (docs/contract.md#settings OTEL_EXPORTER_OTLP_ENDPOINT; the standard OTEL_*
 * variables apply). Imported by src/server.ts only when tracing is on, and before fastify, undici,
 * pg or ioredis are imported, so that their instrumentations see them load.
 *
 * What a request gives: one server span named by its route (`GET /patients/appointments/`) with
 * the operation as `pdas.operation`, its EHR calls (`ehr read bookings`, and below them the undici
 * HTTP call to the EHR, which carries our `traceparent`), its audit write (`audit append`, and below it
 * the PostgreSQL insert) and Redis commands (names only). Every request starts its own trace: a
 * caller's trace context is only a link, and its baggage goes nowhere (untrusted-trace-context.ts).
 * Every span is redacted before export (redact-span.ts). Only traces are exported: metrics stay on /metrics.
 */
import { register } from 'node:module';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import type { FastifyRequest } from 'fastify';
import { loggedPath } from '../http/logged-path.js';
import { RedactingSpanProcessor } from './redacting-span-processor.js';
import { linkCallerSpan, OutboundTraceContextPropagator } from './untrusted-trace-context.js';

export interface Tracing {
  /** pino `mixin`: the active trace and span ids on every log line written inside a request. */
  logMixin(): Record<string, string>;
  /** Exports what is still buffered, waiting at most two seconds. */
  shutdown(): Promise<void>;
}

const SERVICE_NAME = 'patient-data-access';
const SHUTDOWN_MS = 2000;
// Probes and scrapes would outnumber the requests worth seeing.
const UNTRACED = /^\/(?:health|metrics)(?:[/?]|$)|\/docs(?:[/?]|$)/;

function exporterFromEnv(env: NodeJS.ProcessEnv): tracing.SpanExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol === 'http/json') return new OtlpJsonExporter();
  if (protocol === 'http/protobuf') return new OtlpProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL ${protocol} is not supported; use http/protobuf or http/json`);
}

/**
 * The request span is named by the route pattern and carries it as its path, never the raw path
 * (issue 44 item 11: an unmatched one is a marker and its length), and says which operation ran.
 */
function nameRequestSpan(span: Span, request: FastifyRequest): void {
  const { path, pathLength } = loggedPath(request);
  span.updateName(pathLength === undefined ? `${request.method} ${path}` : request.method);
  span.setAttribute('url.path', path);
  if (pathLength !== undefined) span.setAttribute('pdas.path_length', pathLength);
  const operation = (request.routeOptions.config as { operation?: unknown } | undefined)?.operation;
  if (typeof operation === 'string') span.setAttribute('pdas.operation', operation);
  linkCallerSpan(span, request.headers.traceparent);
}

export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing> {
  // pg and ioredis are imported from ES modules; the loader hook lets their instrumentations patch them.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: ['pg', 'ioredis'] } });
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME ? {} : { serviceName: SERVICE_NAME }),
    // Given here, OTEL_PROPAGATORS cannot bring back a propagator that trusts callers.
    textMapPropagator: new OutboundTraceContextPropagator(),
    spanProcessors: [new RedactingSpanProcessor(), new tracing.BatchSpanProcessor(exporterFromEnv(env))],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new FastifyOtelInstrumentation({
        registerOnInitialization: true, instrumentHooks: false, instrumentHandler: false, ignorePaths: (route: { url?: string }) => UNTRACED.test(route.url ?? ''),
        requestHook: nameRequestSpan,
      }),
      // Only calls made for a request: no spans for JWKS refreshes or readiness probes.
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      // The command name only: keys and arguments may name a patient or a subscription.
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  return {
    logMixin: (): Record<string, string> => {
      const context = trace.getActiveSpan()?.spanContext();
      return context === undefined ? {} : { trace_id: context.traceId, span_id: context.spanId };
    },
    // Bounded: an unreachable collector must not hold the process past its shutdown deadline.
    shutdown: () => Promise.race([sdk.shutdown().catch(() => undefined), new Promise<void>((r) => setTimeout(r, SHUTDOWN_MS).unref())]),
  };
}
