/**
 * `npm run soak`: a bounded mixed load on loopback against the real service (default 300 s at
 * 150 req/s; `SOAK_DURATION_S=20 npm run soak` for a quick run; every setting in
 * scripts/soak/options.ts), then the checks: one audit row per answered request, no memory growth
 * trend, no answer the load did not provoke, no 5xx. Prints a summary; exits 0 only if every check
 * passed. Ctrl-C stops the load and still cleans up (a second Ctrl-C kills the child processes at once).
 */
import { soakOptions } from './soak/options.js';
import { runningChildren, runSoak } from './soak/run.js';

const killChildren = (): void => {
  for (const child of runningChildren) child.killNow();
};

async function main(): Promise<number> {
  const options = soakOptions();
  const controller = new AbortController();
  let firstInterrupt = 0;
  const interrupt = (signal: NodeJS.Signals): void => {
    // A terminal's Ctrl-C may arrive twice at once (directly, and relayed by tsx); only a later one kills.
    if (firstInterrupt === 0) {
      firstInterrupt = Date.now();
      console.error(`\n${signal}: stopping the load and cleaning up (again to kill at once)`);
      controller.abort();
      return;
    }
    if (Date.now() - firstInterrupt < 2000) return;
    killChildren();
    process.exit(130);
  };
  process.on('SIGINT', interrupt);
  process.on('SIGTERM', interrupt);
  process.on('exit', killChildren);
  // Whatever hangs, the run ends: the load's own time plus generous set-up and clean-up.
  const watchdog = setTimeout(() => {
    console.error('soak watchdog: the run took too long; aborting');
    controller.abort();
    setTimeout(() => {
      killChildren();
      process.exit(2);
    }, 60_000).unref();
  }, (options.durationS + 300) * 1000);
  watchdog.unref();

  const report = await runSoak(options, controller.signal);
  clearTimeout(watchdog);
  console.log(`\n${report.summary}`);
  if (report.aborted) return 130;
  return report.ok ? 0 : 1;
}

main().then((code) => process.exit(code), (err: unknown) => {
  console.error('soak failed:', err);
  killChildren();
  process.exit(1);
});
