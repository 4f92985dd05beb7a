import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, Redis, the EHR simulator) that a
 * test can cut and restore, to show what the service does while a dependency is down.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'up' | 'refuse' | 'blackhole' = 'up';
  /** How late the server's answers are handed on (`slow`); 0 hands them on at once. */
  private delayMs = 0;
  port = 0;

  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const proxy = new TcpProxy(targetHost, targetPort);
    await proxy.listen();
    return proxy;
  }

  private listen(port = 0): Promise<void> {
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.mode === 'refuse') {
        client.destroy();
        return;
      }
      if (this.mode === 'blackhole') return;
      const upstream = connect(this.targetPort, this.targetHost);
      this.sockets.add(upstream);
      upstream.on('close', () => { this.sockets.delete(upstream); client.destroy(); });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream);
      // Answers in the order they came, each no sooner than `delayMs` after it: a slow server, not a reordering one.
      let last = 0;
      upstream.on('data', (chunk: Buffer) => {
        const at = Math.max(last, Date.now() + this.delayMs);
        last = at;
        if (at <= Date.now()) client.write(chunk);
        else setTimeout(() => client.write(chunk), at - Date.now());
      });
    });
    return new Promise((resolve) => {
      this.server?.listen(port, '127.0.0.1', () => {
        this.port = (this.server?.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  /** Drops every open connection; new ones are reset at once (`refuse`) or accepted and never answered (`blackhole`). */
  cut(mode: 'refuse' | 'blackhole' = 'refuse'): void {
    this.mode = mode;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Keeps every connection, and hands each answer on `ms` late: a server that answers after the client stopped waiting. */
  slow(ms: number): void {
    this.delayMs = ms;
  }

  restore(): void {
    this.mode = 'up';
    this.delayMs = 0;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
