/**
 * Open-loop load: requests arrive as a Poisson process at a fixed rate whatever the server does, and
 * each latency is measured from the request's scheduled arrival, so a stalled server cannot hide its
 * queue (no coordinated omission). The requests come from a generator process of their own
 * (open-loop-generator.ts), on this process's core, so this process's garbage and work cannot delay
 * them. Bounded in count and time.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { GeneratorResult, GeneratorTask } from './open-loop-generator.js';

export interface OpenLoopResult extends GeneratorResult {
  rate: number;
  seconds: number;
  achievedRate: number;
}

const GENERATOR = fileURLToPath(new URL('./open-loop-generator.ts', import.meta.url));
// A young generation large enough that the generator's little garbage never reaches a full collection.
const GENERATOR_FLAGS = ['--import', 'tsx', '--max-semi-space-size=64'];
const LIMIT_MS = 60_000;

/**
 * @param warmupSeconds arrivals at the same rate before the measured ones (connections opened, code
 *   warm), not recorded; `onMeasure` is called when the measured part starts
 */
export async function openLoop(
  origin: string, path: string, headers: Record<string, string>, rate: number, seconds: number,
  warmupSeconds = 2, onMeasure: () => Promise<unknown> | void = () => undefined,
): Promise<OpenLoopResult> {
  // BENCH_OPEN_LOOP_TRACE=file: each measured request's arrival (ms into the measured part), latency,
  // how late the generator sent it and when its head came (both ms after arrival), one line each:
  // to tell a tail made by one stall from one spread over the run, and the server's from the generator's.
  const task: GeneratorTask = { origin, path, headers, rate, seconds, warmupSeconds, traceFile: process.env.BENCH_OPEN_LOOP_TRACE || undefined };
  const child = fork(GENERATOR, [], { execArgv: GENERATOR_FLAGS, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const result = await new Promise<GeneratorResult>((resolve, reject) => {
    const limit = setTimeout(() => {
      child.kill();
      reject(new Error('open-loop generator ran past its time limit'));
    }, LIMIT_MS + (seconds + warmupSeconds) * 1000);
    child.on('message', (message: { type: string; result?: GeneratorResult }) => {
      if (message.type === 'measuring') void onMeasure();
      if (message.type === 'result' && message.result) {
        clearTimeout(limit);
        resolve(message.result);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(limit);
      reject(new Error(`open-loop generator exited with ${code} before answering`));
    });
    child.send(task);
  });
  return { ...result, rate, seconds, achievedRate: result.completed / seconds };
}
