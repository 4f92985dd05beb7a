/**
 * A TLS handshake with the EHR that failed, told apart by the error's code so that the log says
 * which setting to look at (docs/contract.md#settings EHR_TLS_*). The reason is fixed text of this service plus
 * the OpenSSL/Node code; nothing of the certificates or the request is in it.
 */
import { CLOSED_AFTER_HANDSHAKE } from './ehr-connector.js';

// The EHR's certificate did not verify against EHR_TLS_CA_FILE (or the system CAs), or not for this host.
const SERVER_CERTIFICATE = /^(?:UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|INVALID_CA$|INVALID_PURPOSE$|PATH_LENGTH_EXCEEDED$|HOSTNAME_MISMATCH$|ERR_TLS_CERT_ALTNAME_INVALID$|ERROR_IN_CERT_)/;
// The EHR sent an alert: it wanted a client certificate, or did not accept the one it got.
const REFUSED_BY_EHR = /^ERR_SSL_(?:TLSV13_ALERT_CERTIFICATE_REQUIRED|TLSV1_ALERT_UNKNOWN_CA|TLSV1_ALERT_ACCESS_DENIED|SSLV3_ALERT_BAD_CERTIFICATE|SSLV3_ALERT_CERTIFICATE_\w+|SSLV3_ALERT_HANDSHAKE_FAILURE|TLSV1_ALERT_DECRYPT_ERROR)$/;
// Not TLS at all on the other side (an http:// port behind an https:// EHR_BASE_URL).
const NOT_TLS = /^(?:ERR_SSL_WRONG_VERSION_NUMBER|ERR_SSL_PACKET_LENGTH_TOO_LONG|EPROTO)$/;

const codeOf = (err: unknown): string | undefined => {
  for (let e = err, depth = 0; e !== null && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code === CLOSED_AFTER_HANDSHAKE || code.startsWith('ERR_SSL_') || SERVER_CERTIFICATE.test(code) || NOT_TLS.test(code))) return code;
  }
  return undefined;
};

/** The log-ready reason when `err` is a failed TLS handshake, else undefined. */
export function tlsFailureReason(err: unknown): string | undefined {
  const code = codeOf(err);
  if (code === undefined) return undefined;
  if (SERVER_CERTIFICATE.test(code)) return `EHR TLS handshake failed (${code}): the EHR's certificate is not trusted; check EHR_TLS_CA_FILE and the host in EHR_BASE_URL`;
  if (REFUSED_BY_EHR.test(code)) return `EHR TLS handshake failed (${code}): the EHR refused this service's client certificate; check EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE`;
  // The EHR closed a TLS 1.3 connection without a byte of answer, as Node does with a client certificate it rejects.
  if (code === CLOSED_AFTER_HANDSHAKE) return `EHR TLS handshake failed (${code}): the EHR closed the connection without accepting it; it may have refused this service's client certificate; check EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE`;
  if (NOT_TLS.test(code)) return `EHR TLS handshake failed (${code}): the EHR does not speak TLS there; check EHR_BASE_URL`;
  return `EHR TLS handshake failed (${code})`;
}
