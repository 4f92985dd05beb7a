import { X509Certificate } from 'node:crypto';

/** What identifies a certificate in a log line: its expiry and fingerprint, never the key. */
export function certificateSummary(cert: unknown): { validTo: string; fingerprint256: string } | undefined {
  if (!Buffer.isBuffer(cert) && typeof cert !== 'string') return undefined;
  try {
    const x509 = new X509Certificate(cert);
    return { validTo: x509.validTo, fingerprint256: x509.fingerprint256 };
  } catch {
    return undefined;
  }
}

/** When the certificate (the first of a PEM chain: the leaf) stops being valid; undefined if none can be read. */
export function certificateExpiry(cert: unknown): Date | undefined {
  if (!Buffer.isBuffer(cert) && typeof cert !== 'string') return undefined;
  try {
    return new X509Certificate(cert).validToDate;
  } catch {
    return undefined;
  }
}
