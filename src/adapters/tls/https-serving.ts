/**
 * HTTPS for the API (docs/contract.md#settings TLS_CERT_FILE / TLS_KEY_FILE / TLS_CLIENT_CA_FILE). Every server
 * fastify creates through `serverFactory` (one per bound address) is kept, and when the files
 * change each is given the new secure context: connections opened after that see the new
 * certificate, open ones keep theirs, and nothing restarts. Files that do not make a usable context
 * (half written, key and certificate from different pairs) are logged and the old context stays.
 */
import type { ServerOptions as HttpServerOptions } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { FastifyServerFactory } from 'fastify';
import type { Logger } from 'pino';
import type { ServerTlsFiles } from '../../start/transport-settings.js';
import { certificateExpiry, certificateSummary } from './certificate-summary.js';
import { watchFiles, type FileWatch, type FileWatchTiming } from './file-watch.js';
import { clientCertificateOptions, readServerTls, type ServerSecureContext } from './server-tls.js';

const DEFAULT_TIMING: FileWatchTiming = { intervalMs: 1000, settleMs: 250 };

type Log = Pick<Logger, 'info' | 'warn' | 'debug'>;

const describe = (context: ServerSecureContext): ReturnType<typeof certificateSummary> => certificateSummary(context.cert);

const numberOr = (value: unknown, fallback: number): number => (typeof value === 'number' ? value : fallback);

export class HttpsServing {
  private readonly servers = new Set<Server>();
  private watch: FileWatch | undefined;

  private constructor(private readonly files: ServerTlsFiles, private context: ServerSecureContext, private readonly log: Log) {}

  /** Reads the files (a failure here stops the start) and watches them for changes. */
  static async open(files: ServerTlsFiles, log: Log, timing: FileWatchTiming = DEFAULT_TIMING): Promise<HttpsServing> {
    const serving = new HttpsServing(files, await readServerTls(files), log);
    log.info({ certificate: describe(serving.context), clientCertificateRequired: files.clientCaFile !== undefined }, 'HTTPS enabled');
    const watched = [files.certFile, files.keyFile, ...(files.clientCaFile === undefined ? [] : [files.clientCaFile])];
    serving.watch = watchFiles(watched, () => void serving.reload(), timing);
    return serving;
  }

  /** fastify's `serverFactory`: an HTTPS server with the node HTTP options and fastify's own timeouts. */
  serverFactory(httpOptions: HttpServerOptions): FastifyServerFactory {
    return (handler, opts) => {
      const server = createServer({ ...httpOptions, ...this.context, ...clientCertificateOptions(this.files) }, handler);
      // What fastify sets on the servers it creates itself (lib/server.js getServerInstance).
      server.keepAliveTimeout = numberOr(opts.keepAliveTimeout, server.keepAliveTimeout);
      server.requestTimeout = numberOr(opts.requestTimeout, server.requestTimeout);
      server.setTimeout(numberOr(opts.connectionTimeout, 0));
      const perSocket = numberOr(opts.maxRequestsPerSocket, 0);
      if (perSocket > 0) server.maxRequestsPerSocket = perSocket;
      // A plain-HTTP request, a missing or untrusted client certificate: refused in the handshake.
      server.on('tlsClientError', (err: NodeJS.ErrnoException, socket) => {
        this.log.debug({ code: err.code, remoteAddress: socket.remoteAddress }, 'TLS handshake refused');
      });
      this.servers.add(server);
      server.once('close', () => this.servers.delete(server));
      return server;
    };
  }

  /** Re-reads the files; on success every server takes the new context for its next connections. */
  async reload(): Promise<boolean> {
    let context: ServerSecureContext;
    try {
      context = await readServerTls(this.files);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      this.log.warn({ reason }, 'TLS files changed but do not make a usable certificate; still serving the previous one');
      return false;
    }
    this.context = context;
    for (const server of this.servers) server.setSecureContext(context);
    this.log.info({ certificate: describe(context) }, 'TLS certificate reloaded; new connections use it');
    return true;
  }

  /** The expiry of the certificate new connections get (pdas_tls_certificate_expiry_timestamp_seconds). */
  certificateExpiry(): Date | undefined {
    return certificateExpiry(this.context.cert);
  }

  close(): void {
    this.watch?.close();
  }
}
