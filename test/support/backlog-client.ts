/**
 * A client in a process of its own (`fork` with `--import tsx`), so that it can connect and write
 * while the service's process is blocked: the connections are then completed by the kernel and
 * their requests in the service's sockets, but none of them accepted by Node yet (they wait in the
 * listener's backlog). Driven over IPC by test/support/backlog.ts; it writes `flag` once every
 * request is in the kernel, then reads every answer off the wire and reports them.
 */
import { writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface BacklogCommand {
  port: number;
  /** The requests of each connection, pipelined in one write. */
  requests: string[][];
  /** Written once all requests are in the kernel. */
  flag: string;
  giveUpMs: number;
}

export interface BacklogAnswer {
  status: number;
  connection: string;
  requestId: string;
  bodyBytes: number;
  /** The body is a JSON array, as a read's answer is. */
  jsonArray: boolean;
}

export interface BacklogConnection {
  answers: BacklogAnswer[];
  /** 'end' (the service closed it cleanly), an error code (ECONNRESET ...), or 'open' after giveUpMs. */
  ended: string;
}

function watch(socket: Socket): { answers: BacklogAnswer[]; ended: Promise<string> } {
  const answers: BacklogAnswer[] = [];
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headEnd = buffer.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = buffer.subarray(0, headEnd).toString('latin1');
      const header = (name: string): string => new RegExp(`\r\n${name}: ([^\r]*)`, 'i').exec(head)?.[1] ?? '';
      const length = Number(header('content-length'));
      if (buffer.length < headEnd + 4 + length) return;
      const body = buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
      let jsonArray = false;
      try {
        jsonArray = Array.isArray(JSON.parse(body));
      } catch {
        jsonArray = false;
      }
      answers.push({ status: Number(head.split(' ')[1]), connection: header('connection'), requestId: header('x-request-id'), bodyBytes: length, jsonArray });
      buffer = buffer.subarray(headEnd + 4 + length);
    }
  });
  const ended = new Promise<string>((resolve) => {
    socket.once('end', () => resolve('end'));
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    socket.once('close', () => resolve('close'));
  });
  return { answers, ended };
}

async function run(command: BacklogCommand): Promise<BacklogConnection[]> {
  const sockets = command.requests.map(() => connect(command.port, '127.0.0.1'));
  const watched = sockets.map(watch);
  await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('connect', resolve))));
  await Promise.all(sockets.map((socket, i) => new Promise((resolve) => socket.write((command.requests[i] ?? []).join(''), resolve))));
  writeFileSync(command.flag, 'written');
  const giveUp = new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), command.giveUpMs).unref());
  const result = await Promise.all(watched.map(async ({ answers, ended }) => ({ answers, ended: await Promise.race([ended, giveUp]) })));
  for (const socket of sockets) socket.destroy();
  return result;
}

process.on('message', (command: BacklogCommand) => {
  run(command).then((connections) => process.send?.({ connections }), (err: unknown) => process.send?.({ error: String(err) }));
});
