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
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Resident memory by mapping, in MB (BENCH_MEMORY_PEAK=smaps): the node binary's own pages, glibc's
 * main heap (`[heap]`, where array buffers and V8's own malloc'd memory go), and anonymous
 * mappings (`anon`: V8's heap pages and the rest; `anon64M`: a malloc arena of another thread).
 */
function residentByMapping() {
  const mb = {};
  let name = '';
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (range) {
      const size = (parseInt(range[2], 16) - parseInt(range[1], 16)) / 2 ** 20;
      name = range[3] ? range[3].replace(/^.*\//, '') : size === 64 ? 'anon64M' : 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) mb[name] = (mb[name] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(Object.entries(mb).filter(([, v]) => v >= 2).map(([k, v]) => [k, Math.round(v)]));
}

if (typeof process.send === 'function') {
  const delay = monitorEventLoopDelay({ resolution: 2 });
  delay.enable();
  let since = process.cpuUsage();
  let sinceWall = performance.now();
  // BENCH_MEMORY_PEAK: what the heap, external memory and array buffers were when RSS peaked (sampled every 10 ms,
  // so it sees the peak between tasks, not within one); `smaps`: also resident memory by mapping, read
  // again only when the peak grew by a megabyte (reading /proc/self/smaps takes milliseconds).
  let peak;
  if (process.env.BENCH_MEMORY_PEAK) {
    setInterval(() => {
      const rss = process.memoryUsage.rss();
      if (peak === undefined || rss > peak.rss) {
        const bySmaps = process.env.BENCH_MEMORY_PEAK === 'smaps' && (peak === undefined || rss > peak.rss + 2 ** 20);
        const smaps = bySmaps ? residentByMapping() : peak?.smaps;
        peak = { ...process.memoryUsage(), ...(smaps === undefined ? {} : { smaps }) };
      }
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
