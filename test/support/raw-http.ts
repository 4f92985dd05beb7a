import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A keep-alive connection driven byte by byte: requests are written when the test says, pipelined
 * if it says so, and answers are read off the wire (Content-Length or chunked), so nothing a client
 * library does (retries, queueing, its own pool) hides what the server did.
 */
export class RawConnection {
  readonly answers: RawAnswer[] = [];
  /** Resolves with how the server ended the connection: 'end' (FIN) or the error (ECONNRESET ...). */
  readonly ended: Promise<string>;
  private buffer = Buffer.alloc(0);

  private constructor(private readonly socket: Socket) {
    this.ended = new Promise((resolve) => {
      socket.once('end', () => resolve('end'));
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      socket.once('close', () => resolve('close'));
    });
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  write(requests: string[]): void {
    this.socket.write(requests.join(''));
  }

  /** Resolves when the next bytes arrive (an answer has begun). */
  nextBytes(): Promise<void> {
    return new Promise((resolve) => this.socket.once('data', () => resolve()));
  }

  /** Resolves once `count` answers have been read, or after `timeoutMs` with what there is. */
  async answered(count: number, timeoutMs = 5000): Promise<RawAnswer[]> {
    const until = Date.now() + timeoutMs;
    while (this.answers.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return this.answers;
  }

  /** Stops reading (the answers back up in the sockets, as with a slow client) or starts again. */
  reading(on: boolean): void {
    if (on) this.socket.resume();
    else this.socket.pause();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const [statusLine = '', ...lines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      let rest = this.buffer.subarray(headEnd + 4);
      let body: Buffer;
      if (headers['transfer-encoding'] === 'chunked') {
        const chunks: Buffer[] = [];
        for (;;) {
          const lineEnd = rest.indexOf('\r\n');
          if (lineEnd < 0) return;
          const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
          if (rest.length < lineEnd + 2 + size + 2) return;
          chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          rest = rest.subarray(lineEnd + 2 + size + 2);
          if (size === 0) break;
        }
        body = Buffer.concat(chunks);
      } else {
        const length = Number(headers['content-length'] ?? 0);
        if (rest.length < length) return;
        body = rest.subarray(0, length);
        rest = rest.subarray(length);
      }
      this.answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: body.toString('utf8') });
      this.buffer = rest;
    }
  }
}


/**
 * Everything the server writes to `request` on a fresh connection until it closes it, read as one
 * answer: a refusal written on the socket, or an answer to HEAD, whose length says nothing of what
 * follows. With `trickle`, a byte more of the request every 200 ms until then (a request never finished).
 */
export function answerUntilClosed(port: number, request: string, trickle = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const dripping = trickle ? setInterval(() => socket.writable && socket.write('X'), 200) : undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => { received += chunk; });
    socket.once('error', reject);
    socket.once('close', () => {
      clearInterval(dripping);
      const end = received.indexOf('\r\n\r\n');
      const [line = '', ...fields] = received.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(':')).toLowerCase(), f.slice(f.indexOf(':') + 1).trim()]));
      resolve({ status: Number(line.split(' ')[1]), headers, body: received.slice(end + 4) });
    });
  });
}
