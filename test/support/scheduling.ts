/**
 * Deadline tests on a machine that may be busy. A test that arranges a fault (a hang, a blackhole, a
 * trickle of a long body) checks that the service gave up at its deadline rather than waiting for the
 * fault; on two loaded cores a timer or a loopback answer runs late by seconds (a full `npm test` beside
 * other work failed so on margins of 200 to 600 ms). The bound below is the deadline plus this slack:
 * far less than the arranged fault would take, so it still tells a kept deadline from a missing one,
 * and it claims nothing about speed (`npm run bench` measures that).
 */
import { expect } from 'vitest';

export const SCHEDULING_SLACK_MS = 5_000;

/** `ms` came in before `deadlineMs` plus the scheduling slack: the deadline was kept, however busy the machine. */
export function expectDeadlineKept(ms: number, deadlineMs: number, what = 'answered'): void {
  expect(ms, `${what} within the deadline (${deadlineMs} ms) plus ${SCHEDULING_SLACK_MS} ms of scheduling slack`)
    .toBeLessThan(deadlineMs + SCHEDULING_SLACK_MS);
}
