/**
 * undici's own connector, replaceable when the client certificate is rotated, keeping a note of the
 * last TLS failure a connection to the EHR met, and of the connection attempts still under way.
 * With TLS 1.3 the client's handshake is finished before the EHR has looked at its certificate; an
 * EHR that refuses it sends an alert (or, as Node does, just closes) and undici reports only "other
 * side closed". The note is what tells that lost connection apart as a certificate problem.
 */
import type { TLSSocket } from 'node:tls';
import { buildConnector, type Connector, type ConnectorOptions } from '../http-client/undici-parts.js';

/** A TLS 1.3 connection the EHR closed before it sent any answer. */
export const CLOSED_AFTER_HANDSHAKE = 'PDAS_TLS_CLOSED_AFTER_HANDSHAKE';

/** undici's `connect` for the EHR pool: connections made with the current TLS options, watched for TLS failures. */
export class EhrConnector {
  private last: { error: unknown; at: number } | undefined;
  private current: Connector;
  /** When each connection attempt still waiting for the EHR began (epoch ms). */
  private readonly pending = new Set<{ since: number }>();

  constructor(options: ConnectorOptions) {
    this.current = buildConnector(options);
  }

  /** The pool's `connect` option. */
  readonly connect: Connector = (opts, callback) => {
    const attempt = { since: Date.now() };
    this.pending.add(attempt);
    this.current(opts, (err, socket) => {
      this.pending.delete(attempt);
      if (socket) this.watch(socket as TLSSocket);
      // Typed as a union of two overloads; the arguments are undici's own, passed back unchanged.
      (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
    });
  };

  /** When the oldest connection attempt still waiting for the EHR (TCP, then TLS) began, if one is. */
  connectingSince(): number | undefined {
    let oldest: number | undefined;
    for (const { since } of this.pending) oldest = oldest === undefined ? since : Math.min(oldest, since);
    return oldest;
  }

  /** Connections opened from now on use `options` (a rotated client certificate); open ones keep theirs. */
  replace(options: ConnectorOptions): void {
    this.current = buildConnector(options);
  }

  /** The TLS failure a connection met at or after `since` (epoch ms), if any. */
  since(since: number): unknown {
    return this.last !== undefined && this.last.at >= since ? this.last.error : undefined;
  }

  private watch(socket: TLSSocket): void {
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code?.startsWith('ERR_SSL_')) this.note(error);
    });
    if (typeof socket.getProtocol !== 'function' || socket.getProtocol() !== 'TLSv1.3') return;
    // Closed before a single byte of answer on a connection made for a request: with TLS 1.3 that is
    // how a server that judges the client certificate after the handshake says no.
    socket.once('end', () => {
      if (socket.bytesRead === 0) this.note(Object.assign(new Error('EHR closed the connection after the TLS handshake'), { code: CLOSED_AFTER_HANDSHAKE }));
    });
  }

  private note(error: unknown): void {
    this.last = { error, at: Date.now() };
  }
}
