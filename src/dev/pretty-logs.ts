import type { DestinationStream } from 'pino';
import { build } from 'pino-pretty';

/** Log lines for a person at a terminal (LOG_FORMAT=pretty): pino-pretty, a development dependency. */
export function prettyLogs(): DestinationStream {
  return build({ colorize: process.stdout.isTTY, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
