/**
 * `npm run bench` part 5 (issue 15): what OpenTelemetry costs. Two services side by side, one with
 * tracing off and one exporting every span to a loopback OTLP sink (bench/otlp-sink.ts), measured in
 * alternation, round after round, so that a shared machine's drift falls on both alike; the table
 * gives every round and the medians.
 */
import { fmt, median, table } from './util.js';

export const TRACING_ROUNDS = 3;

export interface TracingRun {
  rps: number;
  p99Ms: number;
  cpuUsPerRequest: number;
}

export interface TracingResult {
  adapter: string;
  off: TracingRun[];
  on: TracingRun[];
}

const change = (from: number, to: number): string => `${to >= from ? '+' : ''}${fmt(((to - from) / from) * 100, 1)} %`;
const rounds = (runs: TracingRun[], pick: (r: TracingRun) => number, digits = 0): string => runs.map((r) => fmt(pick(r), digits)).join(' / ');

export function tracingTable(results: TracingResult[], sink: { exports: number; bytes: number }): string {
  const rows = results.flatMap(({ adapter, off, on }) => {
    const cpu = [median(off.map((r) => r.cpuUsPerRequest)), median(on.map((r) => r.cpuUsPerRequest))] as const;
    const rps = [median(off.map((r) => r.rps)), median(on.map((r) => r.rps))] as const;
    return [[
      adapter, rounds(off, (r) => r.cpuUsPerRequest), rounds(on, (r) => r.cpuUsPerRequest),
      `${fmt(cpu[0])} → ${fmt(cpu[1])} (${change(cpu[0], cpu[1])}, ${fmt(cpu[1] - cpu[0])} µs)`,
      `${fmt(rps[0])} → ${fmt(rps[1])} (${change(rps[0], rps[1])})`,
      `${fmt(median(off.map((r) => r.p99Ms)), 1)} → ${fmt(median(on.map((r) => r.p99Ms)), 1)}`,
    ]];
  });
  return `## Tracing off → on (20 KB read, 50 connections, ${TRACING_ROUNDS} alternating rounds; ${sink.exports} OTLP exports, `
    + `${fmt(sink.bytes / 2 ** 20, 1)} MiB to the sink)\n\n${table(
      ['EHR adapter', 'CPU µs/req off (rounds)', 'on (rounds)', 'median CPU µs/req', 'median req/s', 'median p99 ms'], rows)}`;
}
