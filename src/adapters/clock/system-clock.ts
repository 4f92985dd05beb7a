import type { Clock } from '../../ports/clock.port.js';

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}
