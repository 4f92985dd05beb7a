import type { Logger } from 'pino';
import { loadConfig } from './start/config.js';
import { createLogger } from './http/logging.js';
import { listen } from './start/listen.js';
import { logDestination } from './start/log-format.js';
import { startupFailure } from './start/startup-failure.js';
import { demoBanner } from './start/start-line.js';

/** The start's logger once made: its buffered lines are written out before the banner or a refusal. */
let logger: Logger | undefined;

/**
 * What the logger still holds, written out. Lines go to stdout in 4 KiB writes (src/http/logging.ts),
 * while the banner and a refusal are written at once: without this, the lines the start logged (the
 * demo issuer, then the metrics listener, both open before the API is tried) came after a refusal of
 * PORT on the screen, and after the banner of a start that worked.
 */
function flushed(): Promise<void> {
  return new Promise((resolve) => {
    if (logger === undefined) resolve();
    else logger.flush(() => resolve());
  });
}

/**
 * `npm start`: listen; on SIGTERM/SIGINT stop accepting, let in-flight requests finish (up to
 * SHUTDOWN_TIMEOUT_MS), flush the audit trail and close pools, then exit.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  // Tracing starts before anything imports fastify, undici, pg or ioredis, so that their
  // instrumentations see them load; with it off, nothing of OpenTelemetry is imported at all.
  const tracing = config.tracing ? await (await import('./tracing/start-tracing.js')).startTracing() : undefined;
  const log = createLogger(config.logLevel, await logDestination(config.logFormat), tracing?.logMixin);
  logger = log;
  const { compose } = await import('./start/container.js');
  const runtime = await compose(config, log);
  const { api: address, metrics } = await listen(runtime, config);
  log.info({ address, basePath: config.basePath || '/', metrics }, 'patient data access service listening');
  for (const notice of runtime.notices) log.info(notice);
  const banner = demoBanner(config, address, runtime.notices);
  if (banner !== undefined) {
    await flushed();
    process.stdout.write(banner);
  }
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const deadline = setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown deadline passed; exiting with requests unfinished');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    runtime.close().then(() => tracing?.shutdown()).then(() => {
      log.info('shut down cleanly');
      process.exit(0);
    }, (err: unknown) => {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch(async (err: unknown) => {
  await flushed();
  process.stderr.write(`${startupFailure(err, process.env.LOG_LEVEL)}\n`);
  process.exit(1);
});
