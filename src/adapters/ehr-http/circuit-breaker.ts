/**
 * A circuit breaker for the EHR: after `failureThreshold` consecutive infrastructure failures it
 * opens, and every call fails fast without touching the network until `openMs` has passed. Then a
 * single probe call is let through (half-open): its success closes the breaker, its failure opens
 * it again for another `openMs`. Calls that neither probe nor run while closed cannot change state,
 * so a slow call that started before the breaker opened does not close or extend it.
 */
import { EhrError } from '../../domain/ehr-error.js';

export interface BreakerSettings {
  failureThreshold: number;
  openMs: number;
}

export type BreakerChange = { type: 'breaker-open' | 'breaker-closed'; detail: string };

type State = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  private state: State = 'closed';
  private failures = 0;
  private openedAt = 0;
  private probing = false;

  constructor(
    private readonly settings: BreakerSettings,
    private readonly now: () => number = Date.now,
    private readonly onChange: (change: BreakerChange) => void = () => undefined,
  ) {
    if (!Number.isInteger(settings.failureThreshold) || settings.failureThreshold < 1) {
      throw new RangeError('breaker.failureThreshold must be a positive integer');
    }
    if (!Number.isFinite(settings.openMs) || settings.openMs < 1) throw new RangeError('breaker.openMs must be positive');
  }

  get current(): State {
    return this.state;
  }

  /**
   * Runs `call` unless the breaker is open. `isFailure` says which errors count against the EHR;
   * any other outcome shows the EHR answering, which is what the breaker cares about, except an
   * error `isFailure` calls undefined: it says nothing about the EHR and changes nothing.
   */
  async run<T>(call: () => Promise<T>, isFailure: (err: unknown) => boolean | undefined): Promise<T> {
    const probe = this.admit();
    let result: T;
    try {
      result = await call();
    } catch (err) {
      const failure = isFailure(err);
      if (failure === undefined) this.unsettled(probe);
      else if (failure) this.failed(probe);
      else this.succeeded(probe);
      throw err;
    }
    this.succeeded(probe);
    return result;
  }

  /** Whether this call is the half-open probe; throws `unavailable` when the call may not run. */
  private admit(): boolean {
    if (this.state === 'closed') return false;
    if (this.state === 'open') {
      const left = this.openedAt + this.settings.openMs - this.now();
      if (left > 0) throw unavailable(Math.ceil(left / 1000));
      this.state = 'half-open';
    }
    // Half-open: one probe at a time; the others are told to come back shortly.
    if (this.probing) throw unavailable(1);
    this.probing = true;
    return true;
  }

  private succeeded(probe: boolean): void {
    if (probe) {
      this.probing = false;
      this.close();
    } else if (this.state === 'closed') {
      this.failures = 0;
    }
  }

  /** A probe that showed nothing leaves the breaker half-open: the next call probes again. */
  private unsettled(probe: boolean): void {
    if (probe) this.probing = false;
  }

  private failed(probe: boolean): void {
    if (probe) {
      this.probing = false;
      this.open('probe failed');
    } else if (this.state === 'closed') {
      this.failures += 1;
      if (this.failures >= this.settings.failureThreshold) this.open(`${this.failures} consecutive failure${this.failures === 1 ? '' : 's'}`);
    }
  }

  private open(detail: string): void {
    this.state = 'open';
    this.openedAt = this.now();
    this.onChange({ type: 'breaker-open', detail });
  }

  private close(): void {
    this.failures = 0;
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.onChange({ type: 'breaker-closed', detail: 'probe succeeded' });
  }
}

/** A call refused by the open breaker: it never reached the EHR. */
export class CircuitOpenError extends EhrError {
  constructor(retryAfterSeconds: number) {
    super('unavailable', 'EHR circuit breaker is open', Math.max(1, retryAfterSeconds));
  }
}

const unavailable = (retryAfterSeconds: number): CircuitOpenError => new CircuitOpenError(retryAfterSeconds);
