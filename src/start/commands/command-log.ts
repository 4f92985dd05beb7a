/**
 * What an operator command (`npm run audit`, `npm run migrate`) says about itself: its diagnostics,
 * one plain line each on stderr (`audit: …`, `audit: warning: …`), written through the service's
 * pino logger so that an identity number or a token in an error text (a path or a connection string
 * someone typed) is redacted as in every log line of the service. What the command was asked for (a
 * report, what a migration did, its usage when asked) is its output, on stdout.
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { createLogger } from '../../http/logging.js';

export function commandLogger(command: string): Logger {
  const plain: DestinationStream = {
    write(line: string) {
      const { level, msg } = JSON.parse(line) as { level: number; msg?: string };
      process.stderr.write(`${command}: ${level === pino.levels.values.warn ? 'warning: ' : ''}${msg ?? ''}\n`);
    },
  };
  return createLogger('info', plain);
}

/** A line of the command's output. */
export const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
