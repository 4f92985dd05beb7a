/** Settings of the remote EHR adapter (CONTRACT §1: EHR_BASE_URL, EHR_TIMEOUT_MS, EHR_TIMEZONE). */

export type XmlHttpEhrEvent = { type: 'retry' | 'breaker-open' | 'breaker-closed' | 'upstream-error'; detail?: string };

export interface XmlHttpEhrOptions {
  /** EHR_BASE_URL; a path prefix is kept, credentials, query or fragment are refused. */
  baseUrl: string;
  /** EHR_TIMEOUT_MS: the deadline of one port call, retry and body included. */
  timeoutMs: number;
  /** EHR_TIMEZONE. */
  zone: string;
  /** Larger answers are refused while streaming; 10 MiB unless set. */
  maxBodyBytes?: number;
  /** EHR_TLS_*: the CA bundle to trust instead of the system's, and the client certificate to present (mutual TLS). */
  tls?: { ca?: Buffer; cert?: Buffer; key?: Buffer };
  /** Upper bound of open connections to the EHR; 16 unless set. */
  connections?: number;
  /** Opens after `failureThreshold` consecutive infrastructure failures (5) for `openMs` (10 s). */
  breaker?: { failureThreshold?: number; openMs?: number };
  /** Told why a record was left out of an answer (no personal data in the reason). */
  onDropped: (reason: string) => void;
  /** Retries, breaker changes and upstream errors, with short fixed reasons (never upstream text). */
  onEvent?: (event: XmlHttpEhrEvent) => void;
  /** The breaker's clock, for tests. */
  now?: () => number;
}
