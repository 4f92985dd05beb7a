/**
 * How a test tells the simulator to misbehave. Each call adds a rule; a request takes the first rule
 * that matches its method and path and still has answers left (all answers until `clear()` when no
 * `times` is given).
 */

export interface FaultScope {
  /** How many matching answers misbehave; unlimited until `clear()` when absent. */
  times?: number;
  /** A substring of, or a pattern for, the request path (query excluded). */
  path?: string | RegExp;
  method?: 'GET' | 'PUT' | 'POST';
}

export type Fault =
  | { kind: 'delay'; ms: number }
  | { kind: 'held'; until: Promise<void> }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'resetMidBody' }
  | { kind: 'status'; code: number; body?: string; contentType?: string; retryAfter?: string }
  | { kind: 'malformed' }
  | { kind: 'oversized'; bytes: number; declareLength: boolean }
  | { kind: 'trickle'; intervalMs: number; bytesPerInterval: number }
  | { kind: 'swapPatient' }
  | { kind: 'redirect'; location?: string }
  | { kind: 'commitThenReset' };

export interface FaultControl {
  /** Answer normally, `ms` late. */
  delay(ms: number, scope?: FaultScope): void;
  /**
   * Answer normally once the returned function is called: a delay the test ends when it has seen what
   * happens meanwhile, rather than one long enough for a loaded machine, which every run waited out.
   */
  hold(scope?: FaultScope): () => void;
  /** Accept the request and never answer. */
  hang(scope?: FaultScope): void;
  /** Destroy the connection before answering (a write is not performed). */
  reset(scope?: FaultScope): void;
  /** Send the headers and half the body, then destroy the connection. */
  resetMidBody(scope?: FaultScope): void;
  /** Answer `code` with `body` (a Fault XML naming the patient by default) of `contentType`. */
  status(code: number, body?: string, contentType?: string, scope?: FaultScope & { retryAfter?: string }): void;
  /** A 200 whose XML is cut off in the middle. */
  malformed(scope?: FaultScope): void;
  /** A 200 XML document of `bytes` bytes, streamed; chunked unless `declareLength`. */
  oversized(bytes: number, scope?: FaultScope & { declareLength?: boolean }): void;
  /** The real answer, a few bytes per interval (8 bytes per 100 ms unless set). */
  trickle(scope?: FaultScope & { intervalMs?: number; bytesPerInterval?: number }): void;
  /** The same document of another patient (or another actor's relationships). */
  swapPatient(scope?: FaultScope): void;
  /** A 308 to another origin, with the real document as body. */
  redirect(scope?: FaultScope & { location?: string }): void;
  /** Perform the request (a write is committed), then destroy the connection instead of answering. */
  commitThenReset(scope?: FaultScope): void;
  clear(): void;
}

interface Rule {
  fault: Fault;
  left: number;
  path: string | RegExp | undefined;
  method: string | undefined;
}

export class FaultRules implements FaultControl {
  private rules: Rule[] = [];

  /** The fault for this request, if any; consumes one answer of its rule. */
  take(method: string, path: string): Fault | undefined {
    const rule = this.rules.find((r) => r.left > 0 && (r.method === undefined || r.method === method) && matches(r.path, path));
    if (rule === undefined) return undefined;
    rule.left -= 1;
    this.rules = this.rules.filter((r) => r.left > 0);
    return rule.fault;
  }

  delay(ms: number, scope?: FaultScope): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('delay must be a non-negative number of ms');
    this.add({ kind: 'delay', ms }, scope);
  }
  hold(scope?: FaultScope): () => void {
    let release = (): void => undefined;
    this.add({ kind: 'held', until: new Promise<void>((resolve) => { release = resolve; }) }, scope);
    return release;
  }
  hang(scope?: FaultScope): void { this.add({ kind: 'hang' }, scope); }
  reset(scope?: FaultScope): void { this.add({ kind: 'reset' }, scope); }
  resetMidBody(scope?: FaultScope): void { this.add({ kind: 'resetMidBody' }, scope); }
  status(code: number, body?: string, contentType?: string, scope?: FaultScope & { retryAfter?: string }): void {
    if (!Number.isInteger(code) || code < 200 || code > 599) throw new RangeError('status code must be 200-599');
    this.add({ kind: 'status', code, body, contentType, retryAfter: scope?.retryAfter }, scope);
  }
  malformed(scope?: FaultScope): void { this.add({ kind: 'malformed' }, scope); }
  oversized(bytes: number, scope?: FaultScope & { declareLength?: boolean }): void {
    if (!Number.isInteger(bytes) || bytes < 64) throw new RangeError('oversized needs at least 64 bytes');
    this.add({ kind: 'oversized', bytes, declareLength: scope?.declareLength ?? false }, scope);
  }
  trickle(scope?: FaultScope & { intervalMs?: number; bytesPerInterval?: number }): void {
    this.add({ kind: 'trickle', intervalMs: scope?.intervalMs ?? 100, bytesPerInterval: scope?.bytesPerInterval ?? 8 }, scope);
  }
  swapPatient(scope?: FaultScope): void { this.add({ kind: 'swapPatient' }, scope); }
  redirect(scope?: FaultScope & { location?: string }): void { this.add({ kind: 'redirect', location: scope?.location }, scope); }
  commitThenReset(scope?: FaultScope): void { this.add({ kind: 'commitThenReset' }, scope); }

  clear(): void {
    this.rules = [];
  }

  private add(fault: Fault, scope: FaultScope = {}): void {
    const times = scope.times ?? Infinity;
    if (times !== Infinity && (!Number.isInteger(times) || times < 1)) throw new RangeError('times must be a positive integer');
    this.rules.push({ fault, left: times, path: scope.path, method: scope.method });
  }
}

function matches(pattern: string | RegExp | undefined, path: string): boolean {
  if (pattern === undefined) return true;
  return typeof pattern === 'string' ? path.includes(pattern) : pattern.test(path);
}
