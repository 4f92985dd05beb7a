/**
 * The machine's own noise floor for event-loop blocking: an idle process with a 1 ms interval timer,
 * reporting how long the operating system (or the VM) held it away from its core. Run it pinned
 * where the service runs in the bench:
 *
 *   taskset -c 0 node bench/noise-floor.mjs [seconds]      (default 60; bounded)
 */
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';

const seconds = Math.min(600, Number(process.argv[2] ?? 60));
const gaps = [];
let last = performance.now();
const end = last + seconds * 1000;
const timer = setInterval(() => {
  const now = performance.now();
  gaps.push(now - last - 1);
  last = now;
  if (now < end) return;
  clearInterval(timer);
  gaps.sort((a, b) => a - b);
  const at = (q) => gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * q))].toFixed(2);
  const over = (ms) => gaps.filter((g) => g > ms).length;
  process.stdout.write(`${gaps.length} ticks in ${seconds} s: gap p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, p99.9 ${at(0.999)} ms, `
    + `max ${gaps[gaps.length - 1].toFixed(1)} ms; over 5 ms: ${over(5)}, over 10 ms: ${over(10)}, over 15 ms: ${over(15)}\n`);
}, 1);
