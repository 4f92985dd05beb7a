import type { DestinationStream } from 'pino';
import { ConfigError, type LogFormat } from './config.js';

/**
 * Where log lines go for LOG_FORMAT: undefined for JSON on stdout (production), or pino-pretty's
 * stream for a person at a terminal (`npm run dev`). The lines are redacted before they reach it.
 * Part of the composition root: pino-pretty is a development dependency, reached through src/dev
 * and only when asked for, so a production install (`npm prune --omit=dev`) never needs it; asked
 * for there, the start stops with one line saying so.
 */
export async function logDestination(format: LogFormat): Promise<DestinationStream | undefined> {
  if (format === 'json') return undefined;
  try {
    const { prettyLogs } = await import('../dev/pretty-logs.js');
    return prettyLogs();
  } catch {
    throw new ConfigError('LOG_FORMAT=pretty needs pino-pretty, a development dependency: run npm install, or leave LOG_FORMAT unset for JSON');
  }
}
