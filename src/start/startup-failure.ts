import { ConfigError } from './config.js';

/**
 * What a start that failed prints: one line a person can act on. A setting that cannot work
 * (ConfigError) names the setting and what to do; anything else is a fault of ours, named in one
 * line, its stack only at LOG_LEVEL debug or trace (docs/operations.md#start-up-failures).
 */
export function startupFailure(err: unknown, logLevel: string | undefined): string {
  if (err instanceof ConfigError) return `cannot start: ${err.message}`;
  const e = err instanceof Error ? err : new Error(String(err));
  const line = `cannot start: ${e.name}: ${e.message.split('\n')[0] ?? ''} (set LOG_LEVEL=debug for the stack)`;
  return logLevel === 'debug' || logLevel === 'trace' ? `${line}\n${e.stack ?? ''}` : line;
}
