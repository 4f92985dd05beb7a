/**
 * Whether traces are exported (docs/contract.md#settings OTEL_EXPORTER_OTLP_ENDPOINT). Read apart from the SDK so
 * that with tracing off nothing of OpenTelemetry is ever imported.
 */
export function isTracingEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  const endpoint = (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT)?.trim();
  return endpoint !== undefined && endpoint !== '' && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}
