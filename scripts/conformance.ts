/**
 * `npm run conformance -- --base-url <FHIR base> [--patient <12 digits>] [--sandbox-writes]`: the
 * conformance kit a region runs against its own FHIR R4 EHR before a patient sees the service
 * (src/conformance, docs/upstream-fhir.md#the-conformance-kit). Prints a table (check, result,
 * detail) and exits 1 when a check failed, 2 on a usage error. Settings come from the environment
 * under the service's names (EHR_TIMEZONE, EHR_TIMEOUT_MS, EHR_TLS_*, FHIR_*, FHIR_AUTH=smart-backend included).
 */
import { fhirAuthorization } from '../src/adapters/ehr-fhir/adapter/smart-backend.js';
import { fetchExchange } from '../src/conformance/fetch-exchange.js';
import { fhirConformance } from '../src/conformance/fhir-conformance.js';
import { parseConformanceArgs, UsageError } from '../src/conformance/options.js';
import { failed, formatTable } from '../src/conformance/report.js';
import { readEhrTls } from '../src/start/transport-settings.js';

try {
  const { tlsFiles, auth, maxPageBytes, ...options } = parseConformanceArgs(process.argv.slice(2), process.env);
  const tls = tlsFiles === undefined ? undefined : await readEhrTls(tlsFiles).catch(() => {
    throw new UsageError('an EHR_TLS_* file could not be read: check EHR_TLS_CA_FILE, EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE');
  });
  const authorization = await fhirAuthorization(auth, options.callTimeoutMs, tls === undefined ? {} : { tls }).catch(() => {
    throw new UsageError('FHIR_CLIENT_KEY_FILE is not a PKCS #8 PEM or a JWK private key');
  });
  const rows = await fhirConformance({ ...options, exchange: fetchExchange(options.callTimeoutMs, tls, authorization, maxPageBytes), now: Date.now })
    .finally(() => authorization?.close());
  console.log(formatTable(rows));
  process.exitCode = failed(rows) ? 1 : 0;
} catch (err) {
  console.error(err instanceof UsageError ? err.message : `The kit could not run: ${err instanceof Error ? err.name : 'error'}`);
  process.exitCode = 2;
}
