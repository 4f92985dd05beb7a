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
      client.pipe(upstream).pipe(client);
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

  restore(): void {
    this.mode = 'up';
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
