import { describe, expect, it } from 'vitest';
import { CLOSED_AFTER_HANDSHAKE } from '../../../src/adapters/ehr-http/ehr-connector.js';
import { tlsFailureReason } from '../../../src/adapters/ehr-http/tls-failure.js';

const err = (code: string, cause?: unknown): Error => Object.assign(new Error('x'), { code, ...(cause ? { cause } : {}) });

describe('issue 15 item 2: a failed TLS handshake with the EHR says which setting to check', () => {
  it.each([
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /not trusted; check EHR_TLS_CA_FILE/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /not trusted/],
    ['CERT_HAS_EXPIRED', /not trusted/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /the host in EHR_BASE_URL/],
    ['ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED', /refused this service's client certificate; check EHR_TLS_CERT_FILE/],
    ['ERR_SSL_TLSV1_ALERT_UNKNOWN_CA', /refused this service's client certificate/],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', /refused this service's client certificate/],
    [CLOSED_AFTER_HANDSHAKE, /closed the connection without accepting it; .*EHR_TLS_CERT_FILE/],
    ['ERR_SSL_WRONG_VERSION_NUMBER', /does not speak TLS there; check EHR_BASE_URL/],
    ['ERR_SSL_SOMETHING_ELSE', /^EHR TLS handshake failed \(ERR_SSL_SOMETHING_ELSE\)$/],
  ])('%s', (code, reason) => {
    expect(tlsFailureReason(err(code))).toMatch(reason);
    expect(tlsFailureReason(err('UND_ERR_SOCKET', err(code)))).toMatch(reason);
  });

  it('anything else is not a TLS failure: lost connections keep their own handling', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT']) expect(tlsFailureReason(err(code))).toBeUndefined();
    expect(tlsFailureReason(undefined)).toBeUndefined();
    expect(tlsFailureReason(new Error('no code'))).toBeUndefined();
  });
});
