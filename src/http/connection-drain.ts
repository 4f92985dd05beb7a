import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** How often the drain looks for connections with nothing left to answer. */
const SWEEP_MS = 50;
/** How long a connection must have had nothing to answer before the drain closes it. */
const IDLE_MS = 100;
/** Turns the drain waits at most for the listener's backlog to empty before closing it. */
const MAX_BACKLOG_TURNS = 512;

interface Connection {
  /** Requests parsed on it whose answer is not yet finished. */
  inFlight: number;
  /** The request parsed on it last: its answer is the connection's last, once draining. */
  latest: IncomingMessage | undefined;
  lastActivity: number;
  /** Sweeps in a row that found it idle; a request or an answer sets it back to 0. */
  idleSweeps: number;
}

/**
 * Rolling restarts without lost requests (issue 20 item 7, docs/operations.md#scaling-out): on
 * SIGTERM the listener stops accepting (new connections are refused), every request that reached
 * a connection's socket is served in full, the last answer on each connection says
 * `Connection: close`, and each connection closes after it.
 *
 * A connection the kernel completed before the signal may not be accepted yet: it waits in the
 * listener's backlog with its requests, and closing the listener makes the kernel reset it (issue
 * 34 item 13). libuv accepts one connection each time it polls the listener (uv__server_io, libuv
 * 1.46), once per event-loop turn, and the backlog is first in, first out; so the listener is
 * closed only after a whole turn (a poll phase between two check phases) in which nothing was
 * accepted: the backlog was empty. Connections that arrive meanwhile are served too; at most
 * MAX_BACKLOG_TURNS turns, the most a listener's backlog holds (Node's default, 511).
 *
 * Node's and fastify's own close do not give that: `http.Server.close()` closes every connection
 * it thinks idle at once, and a connection whose next request is still unread in the socket (a
 * pipelined request behind a large answer, bytes that arrived in the same event-loop turn as the
 * signal) looks idle, so its requests are reset; fastify, once closing, answers every request it
 * has not yet routed with 503. So the drain closes only the listener first, waits one event-loop
 * turn (whatever was in the sockets at the signal has then been read), and closes a connection
 * only once it has had nothing to answer for IDLE_MS over two sweeps (the socket has been read in
 * between). Fastify's close runs after, with no connection left.
 */
export class ConnectionDrain {
  private readonly connections = new Map<Socket, Connection>();
  /** Set one event-loop turn after the listener was closed (its backlog accepted first). */
  private settled = false;
  private draining: Promise<void> | undefined;
  /** Connections accepted since the start: the drain closes the listener after a turn without one. */
  private accepted = 0;
  /** Answers made before the drain settled, waiting to learn whether they are their connection's last. */
  private waiting: Array<() => void> = [];

  /** `listenerClosed` hears when new connections start being refused, and how many the backlog still gave after the signal. */
  constructor(private readonly server: HttpServer, private readonly listenerClosed: (acceptedAfterSignal: number) => void = () => undefined) {
    // A TLS server emits 'connection' too, for each TCP connection it accepts.
    server.on('connection', () => {
      this.accepted += 1;
    });
    // Over TLS a request's socket is the TLS socket, which 'secureConnection' gives.
    server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', (socket: Socket) => {
      this.connections.set(socket, { inFlight: 0, latest: undefined, lastActivity: performance.now(), idleSweeps: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    server.prependListener('request', (request: IncomingMessage, response) => {
      const connection = this.connections.get(request.socket);
      if (connection === undefined) return;
      connection.inFlight += 1;
      connection.latest = request;
      this.touch(connection);
      response.once('close', () => {
        connection.inFlight -= 1;
        this.touch(connection);
      });
    });
  }

  /**
   * Calls `answer` with whether the answer to `request` is its connection's last: draining, no
   * request parsed on the connection after it, and the connection reading (Node stops reading a
   * connection whose answers queue up, and unread requests may wait behind this one). An answer
   * made before the drain has settled (the backlog accepted, the listener closed, one turn more)
   * waits for it: the requests that were in the sockets at the signal have been read by then.
   */
  decide(request: IncomingMessage, answer: (last: boolean) => void): void {
    if (this.draining === undefined) {
      answer(false);
      return;
    }
    if (!this.settled) {
      this.waiting.push(() => this.decide(request, answer));
      return;
    }
    const connection = this.connections.get(request.socket);
    answer(connection?.latest === request && !request.socket.isPaused());
  }

  /** Refuses new connections and resolves once every connection has been answered and closed. Idempotent. */
  drain(): Promise<void> {
    this.draining ??= this.run();
    return this.draining;
  }

  private async run(): Promise<void> {
    const before = this.accepted;
    await this.acceptBacklog();
    // net's own close: http's would close "idle" connections at once, unread requests and all.
    if (this.server.listening) NetServer.prototype.close.call(this.server);
    this.listenerClosed(this.accepted - before);
    const now = performance.now();
    for (const connection of this.connections.values()) connection.lastActivity = now;
    await nextTurn();
    this.settled = true;
    for (const decide of this.waiting.splice(0)) decide();
    while (this.connections.size > 0) {
      await sleep(SWEEP_MS);
      this.sweep();
    }
  }

  /** Resolves after an event-loop turn in which the listener accepted nothing (see the class comment). */
  private async acceptBacklog(): Promise<void> {
    // From a check phase, so that exactly one poll phase lies between this one and the next.
    await nextTurn();
    for (let turn = 0; turn < MAX_BACKLOG_TURNS && this.server.listening; turn++) {
      const before = this.accepted;
      await nextTurn();
      if (this.accepted === before) return;
    }
  }

  private sweep(): void {
    const now = performance.now();
    for (const [socket, connection] of this.connections) {
      if (connection.inFlight > 0) continue;
      connection.idleSweeps += 1;
      if (connection.idleSweeps >= 2 && now - connection.lastActivity >= IDLE_MS) socket.destroy();
    }
  }

  private touch(connection: Connection): void {
    connection.lastActivity = performance.now();
    connection.idleSweeps = 0;
  }
}
