import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Static imports only: `import ... from 'x'` and `export ... from 'x'` (type-only imports cost nothing at run time). */
const staticImports = (file: string): string[] =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1] as string);

describe('issue 15 item 3: with OTEL_EXPORTER_OTLP_ENDPOINT unset, nothing of OpenTelemetry loads', () => {
  it('only src/tracing/ imports OpenTelemetry, and the rest of the service reaches src/tracing/ only by dynamic import', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC)) {
      const inTracing = file.startsWith(path.join(SRC, 'tracing') + path.sep);
      for (const spec of staticImports(file)) {
        const otel = spec.startsWith('@opentelemetry/') || spec === '@fastify/otel' || spec.startsWith('import-in-the-middle');
        const tracingModule = /(?:^|\/)tracing\/(?!tracing-settings\.js$)/.test(spec);
        if ((otel && (!inTracing || file.endsWith('tracing-settings.ts'))) || (!inTracing && tracingModule)) offenders.push(`${path.relative(SRC, file)} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
    // The dynamic imports that do load it are there, each behind the setting.
    expect(readFileSync(path.join(SRC, 'server.ts'), 'utf8')).toMatch(/config\.tracing \? await \(await import\('\.\/tracing\/start-tracing\.js'\)\)/);
  });
});
