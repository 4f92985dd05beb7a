/**
 * What the HTTPS listener offers (docs/contract.md#settings TLS_*): TLS 1.2 and 1.3 only, and for TLS 1.2 only
 * forward-secret AEAD suites (ECDHE with AES-GCM or ChaCha20-Poly1305, as Mozilla's "intermediate"
 * profile); the TLS 1.3 suites are all AEAD. With a client CA, a caller without a certificate that
 * CA signed is refused during the handshake, before any HTTP is read.
 */
import { readFile } from 'node:fs/promises';
import { createSecureContext, type SecureContextOptions, type TlsOptions } from 'node:tls';
import type { ServerTlsFiles } from '../../start/transport-settings.js';

export const MIN_TLS_VERSION = 'TLSv1.2';

export const TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256', 'ECDHE-RSA-AES128-GCM-SHA256', 'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384', 'ECDHE-ECDSA-CHACHA20-POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** The secure-context part, which a running server can swap (`setSecureContext`). */
export type ServerSecureContext = SecureContextOptions;

/**
 * Reads the files and checks that they make a usable context: a half-written PEM, a key that does
 * not belong to the certificate or an unreadable file throws here, never in a running server.
 */
export async function readServerTls(files: ServerTlsFiles): Promise<ServerSecureContext> {
  const [cert, key, ca] = await Promise.all([
    readFile(files.certFile), readFile(files.keyFile),
    files.clientCaFile === undefined ? undefined : readFile(files.clientCaFile),
  ]);
  const options: ServerSecureContext = {
    cert, key, ...(ca === undefined ? {} : { ca }), minVersion: MIN_TLS_VERSION, ciphers: TLS_CIPHERS, honorCipherOrder: true,
  };
  createSecureContext(options);
  return options;
}

/** Server-only options that no secure context carries: whether a client certificate is required. */
export function clientCertificateOptions(files: ServerTlsFiles): Pick<TlsOptions, 'requestCert' | 'rejectUnauthorized'> {
  const required = files.clientCaFile !== undefined;
  return { requestCert: required, rejectUnauthorized: required };
}
