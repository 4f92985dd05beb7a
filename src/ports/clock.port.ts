/** The only source of "now" for the domain, so rules about time are testable with a fixed clock. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}
