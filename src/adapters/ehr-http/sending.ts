/**
 * Whether a request was ever written to the EHR. A write whose deadline passed, or whose TLS handshake
 * failed, was told "may or may not have been made" even where no byte of it left: its connection was
 * never opened, or every connection was busy (hostile review helper-138, F3). undici calls a handler's
 * `onRequestStart` on a connected socket just before it writes the request's first byte, and never
 * otherwise; the pool `noteSending` composes marks each request it takes, so that a request it took
 * and never started is known not to have been sent. Written here: undici offers no per-request "sent"
 * of its request API, and this is the one place it would be read.
 */
import type { Dispatcher } from 'undici';

/** What came of one request's sending, filled in by a pool composed with `noteSending`. */
export interface Sending {
  /** The pool took the request through `noteSending`: without that, nothing is known of its sending. */
  watched: boolean;
  /** undici began to write it on a connected socket (`onRequestStart`). */
  started: boolean;
}

/** The request option a Sending rides in; undici passes options it does not know down unread. */
export const SENDING = Symbol('pdas.sending');

export const sendingNotStarted = (): Sending => ({ watched: false, started: false });

/** Known never to have left this process: watched, and never started. Anything less presumes it was sent. */
export const neverSent = (sending: Sending): boolean => sending.watched && !sending.started;

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/** The request's own handler, told everything as before, with its start noted first. */
class NotingHandler implements Handler {
  constructor(private readonly inner: Handler, private readonly sending: Sending) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.sending.started = true;
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Handler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Handler['onResponseStart']>>): void {
    this.inner.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Handler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Handler['onResponseEnd']>>): void {
    this.inner.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Handler['onResponseError']>>): void {
    this.inner.onResponseError?.(...args);
  }
}

/** `pool` with each request that carries a Sending marked watched, and started once undici begins to write it. */
export function noteSending<D extends Dispatcher>(pool: D): D {
  return pool.compose((dispatch) => (options, handler) => {
    const sending = (options as { [SENDING]?: Sending })[SENDING];
    if (sending === undefined) return dispatch(options, handler);
    sending.watched = true;
    return dispatch(options, new NotingHandler(handler, sending));
  }) as unknown as D;
}
