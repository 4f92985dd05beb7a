/**
 * `npm run ehr-sim`: the EHR simulator on 127.0.0.1, serving the upstream HTTP interface
 * (docs/upstream-ehr.md#2-requests-and-answers) over EHR_DATA_DIR, or over synthetic demo data generated for today into
 * `${DATA_DIR:-.data}/ehr-sim-data`. Point the service at it with EHR_ADAPTER=xml-http and
 * EHR_BASE_URL=http://127.0.0.1:8090. Write outcomes go to `${DATA_DIR:-.data}/ehr-sim-state.json`.
 *
 * HTTPS as a region runs it: EHR_SIM_TLS_CERT_FILE and EHR_SIM_TLS_KEY_FILE (PEM) serve https://, and
 * EHR_SIM_TLS_CLIENT_CA_FILE also requires a client certificate that CA signed (mutual TLS); point the
 * service at it with EHR_TLS_CA_FILE, EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE.
 *
 * Documents carry an ETag and Last-Modified and conditional GETs are answered 304, as a real EHR's
 * may; EHR_SIM_VALIDATORS=off makes it an EHR that sends neither (the bench's "before").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateDemoData } from '../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulatorTls } from '../src/dev/ehr-simulator/index.js';
import { assertTimeZone } from '../src/domain/time/local-time.js';
import { createLogger } from '../src/http/logging.js';

const env = (name: string): string | undefined => {
  const value = process.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

function tlsFromEnv(): EhrSimulatorTls | undefined {
  const cert = env('EHR_SIM_TLS_CERT_FILE');
  const key = env('EHR_SIM_TLS_KEY_FILE');
  const clientCa = env('EHR_SIM_TLS_CLIENT_CA_FILE');
  if (cert === undefined && key === undefined && clientCa === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new Error('EHR_SIM_TLS_CERT_FILE and EHR_SIM_TLS_KEY_FILE must be set together');
  return { cert: readFileSync(cert), key: readFileSync(key), ...(clientCa === undefined ? {} : { clientCa: readFileSync(clientCa) }) };
}

async function main(): Promise<void> {
  const logger = createLogger(env('LOG_LEVEL') ?? 'info');
  const zone = env('EHR_TIMEZONE') ?? 'Europe/Stockholm';
  assertTimeZone(zone);
  const port = Number(env('EHR_SIM_PORT') ?? '8090');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('EHR_SIM_PORT must be a port number');
  const dataDir = path.resolve(env('DATA_DIR') ?? '.data');
  const tls = tlsFromEnv();
  const validators = env('EHR_SIM_VALIDATORS') ?? 'on';
  if (validators !== 'on' && validators !== 'off') throw new Error('EHR_SIM_VALIDATORS must be on or off');
  let ehrDataDir = env('EHR_DATA_DIR');
  if (ehrDataDir === undefined) {
    ehrDataDir = path.join(dataDir, 'ehr-sim-data');
    await generateDemoData(ehrDataDir, { now: Date.now(), zone });
  }
  const simulator = await startEhrSimulator({
    dataDir: path.resolve(ehrDataDir), stateFile: path.join(dataDir, 'ehr-sim-state.json'), zone, host: '127.0.0.1', port, validators: validators === 'on',
    ...(tls === undefined ? {} : { tls }),
  });
  logger.warn({ url: simulator.url, dataDir: ehrDataDir, clientCertificateRequired: tls?.clientCa !== undefined },
    'EHR SIMULATOR — synthetic data, not a real EHR and not a system of record; for development and tests only');

  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'EHR simulator shutting down');
    simulator.close().then(() => process.exit(0), (err: unknown) => {
      logger.error({ err }, 'EHR simulator shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  createLogger('error').fatal({ err }, 'EHR simulator failed to start');
  process.exit(1);
});
