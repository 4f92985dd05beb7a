import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A loopback proxy that can stall without closing anything, as a paused or wedged Redis does:
 * open connections stay open, bytes are held in both directions until `resume()`. (TcpProxy's
 * cut drops open connections, which a client notices at once; a stall it only notices by waiting.)
 */
export class StallingProxy {
  private server: Server | undefined;
  private readonly pairs = new Set<{ client: Socket; upstream: Socket; held: Array<[Socket, Buffer]> }>();
  private stalled = false;
  port = 0;

  private constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  static async start(targetHost: string, targetPort: number): Promise<StallingProxy> {
    const proxy = new StallingProxy(targetHost, targetPort);
    await proxy.listen();
    return proxy;
  }

  private listen(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      const pair = { client, upstream, held: [] as Array<[Socket, Buffer]> };
      this.pairs.add(pair);
      const forward = (to: Socket) => (chunk: Buffer) => {
        if (this.stalled) pair.held.push([to, chunk]);
        else to.write(chunk);
      };
      client.on('data', forward(upstream));
      upstream.on('data', forward(client));
      const drop = () => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on('close', drop);
        socket.on('error', drop);
      }
    });
    return new Promise((resolve) => {
      this.server?.listen(0, '127.0.0.1', () => {
        this.port = (this.server?.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  stall(): void {
    this.stalled = true;
  }

  resume(): void {
    this.stalled = false;
    for (const pair of this.pairs) {
      for (const [to, chunk] of pair.held.splice(0)) if (!to.destroyed) to.write(chunk);
    }
  }

  /** How many client connections are open now: shows whether a stalled one was given up on. */
  get openConnections(): number {
    return this.pairs.size;
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
    this.pairs.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
