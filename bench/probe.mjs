/* global process, performance, setInterval */
/**
 * Preloaded into a server under test (`node --import ./bench/probe.mjs dist/server.js`): answers
 * the bench orchestrator over the IPC channel with the process's own CPU time since the last reset,
 * its event-loop delay (max and p99 over the same interval, perf_hooks.monitorEventLoopDelay) and
 * its memory. Does nothing when the process was not started with an IPC channel.
 *
 * Plain JavaScript, so the service runs exactly as `npm start` runs it: compiled, without a
 * TypeScript loader in the process.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (typeof process.send === 'function') {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let since = process.cpuUsage();
  let sinceWall = performance.now();
  // BENCH_MEMORY_PEAK: what the heap, external memory and array buffers were when RSS peaked (sampled every 10 ms,
  // so it sees the peak between tasks, not within one).
  let peak;
  if (process.env.BENCH_MEMORY_PEAK) {
    setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (peak === undefined || rss > peak.rss) peak = process.memoryUsage();
    }, 10).unref();
  }
  const send = (message) => {
    process.send?.(message);
  };
  process.on('message', (message) => {
    if (message?.type === 'bench:reset') {
      delay.reset();
      peak = undefined;
      since = process.cpuUsage();
      sinceWall = performance.now();
      send({ type: 'bench:reset:ok' });
    } else if (message?.type === 'bench:stats') {
      const cpu = process.cpuUsage(since);
      const memory = process.memoryUsage();
      send({
        type: 'bench:stats',
        cpuUserUs: cpu.user,
        cpuSystemUs: cpu.system,
        wallMs: performance.now() - sinceWall,
        eventLoopMaxMs: delay.max / 1e6,
        eventLoopP99Ms: delay.percentile(99) / 1e6,
        rssBytes: memory.rss,
        heapUsedBytes: memory.heapUsed,
        heapTotalBytes: memory.heapTotal,
        externalBytes: memory.external,
        peak,
      });
    }
  });
  // The channel must not keep a server alive that is asked to stop.
  process.channel?.unref();
}
