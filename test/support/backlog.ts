import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BacklogCommand, BacklogConnection } from './backlog-client.js';

export type { BacklogAnswer, BacklogConnection } from './backlog-client.js';

const CLIENT = path.join(import.meta.dirname, 'backlog-client.ts');

/** Sleeps without giving this process's event loop a turn. */
const block = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Requests waiting in a listener's backlog: this process, which serves them, is held still (its event
 * loop gets no turn, so Node accepts nothing) while a client in another process connects and writes
 * every request into the kernel; then `then` runs, in the same turn, before anything was accepted.
 */
export class BacklogClient {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<BacklogClient> {
    const child = fork(CLIENT, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    return new BacklogClient(child);
  }

  /**
   * Writes `requests` (one array per connection, pipelined) to `port` from the client's process
   * while this one is held, calls `then` the moment they are all in the kernel, and resolves with
   * the answers each connection read and how it ended.
   */
  async written(port: number, requests: string[][], then: () => void, giveUpMs = 10_000): Promise<BacklogConnection[]> {
    const flag = path.join(tmpdir(), `pdas-backlog-${process.pid}-${Date.now()}`);
    const result = new Promise<BacklogConnection[]>((resolve, reject) => this.child.once('message', (m: { connections?: BacklogConnection[]; error?: string }) => {
      if (m.connections) resolve(m.connections);
      else reject(new Error(m.error));
    }));
    const command: BacklogCommand = { port, requests, flag, giveUpMs };
    await new Promise<void>((resolve, reject) => this.child.send(command, (err) => (err ? reject(err) : resolve())));
    const until = Date.now() + 10_000;
    while (!existsSync(flag)) {
      if (Date.now() > until) throw new Error('the backlog client wrote nothing within 10 s');
      block(1);
    }
    rmSync(flag);
    then();
    return result;
  }

  close(): void {
    this.child.kill();
  }
}
