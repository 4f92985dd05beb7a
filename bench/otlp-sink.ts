/**
 * A loopback OTLP/HTTP collector for `npm run bench` part 4: it takes every trace export the service
 * sends, counts requests and bytes, and throws the spans away, so that what tracing costs the
 * service is measured with a collector that answers at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export class OtlpSink {
  exports = 0;
  bytes = 0;
  url = '';
  private readonly server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => {
      this.bytes += chunk.length;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces') this.exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });

  static async start(): Promise<OtlpSink> {
    const sink = new OtlpSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    sink.url = `http://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
    return sink;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
