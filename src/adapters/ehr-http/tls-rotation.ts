/**
 * EHR_TLS_* files are watched as TLS_CERT_FILE's are (src/adapters/tls/https-serving.ts): a rotated
 * client certificate is taken for new connections to the EHR without a restart; files that make no
 * usable pair are logged and the old pair stays.
 */
import type { Logger } from 'pino';
import { readEhrTls, type EhrTlsFiles } from '../../start/transport-settings.js';
import { certificateSummary } from '../tls/certificate-summary.js';
import { watchFiles, type FileWatch } from '../tls/file-watch.js';
import type { EhrTls } from './transport.js';

/** As often as the API's own certificate files are looked at. */
const EHR_TLS_WATCH = { intervalMs: 1000, settleMs: 250 };

export function watchEhrTls(files: EhrTlsFiles, target: { useTls(tls: EhrTls): void }, logger: Pick<Logger, 'info' | 'warn'>): FileWatch {
  const watched = [files.certFile, files.keyFile, files.caFile].filter((f): f is string => f !== undefined);
  return watchFiles(watched, () => {
    readEhrTls(files).then((tls) => {
      target.useTls(tls);
      logger.info({ certificate: certificateSummary(tls.cert) }, 'EHR client certificate reloaded; new connections to the EHR use it');
    }).catch((err: unknown) => {
      const reason = err instanceof Error ? err.message : String(err);
      logger.warn({ reason }, 'EHR_TLS_* files changed but do not make a usable client certificate; still using the previous one');
    });
  }, EHR_TLS_WATCH);
}
