/**
 * The kit's command line and settings: `--base-url <FHIR base> [--patient <12 digits>]
 * [--sandbox-writes] [--from YYYYMMDD] [--to YYYYMMDD]`, the FHIR settings read from the
 * environment under the names the service reads (docs/upstream-fhir.md#settings). As the service,
 * it sends identity numbers in clear text to a loopback host only.
 */
import { parsePersonalIdentityNumber } from '../domain/identity/personal-identity-number.js';
import { assertTimeZone, isCompactDate } from '../domain/time/local-time.js';
import { readFhirSettings, type FhirAuth } from '../start/fhir-settings.js';
import { refusePlainRemote, type EhrTlsFiles } from '../start/transport-settings.js';
import type { FhirConformanceOptions } from './fhir-conformance.js';

export const USAGE = 'npm run conformance -- --base-url <FHIR base, e.g. https://fhir.region.example.se/fhir/R4> '
  + '[--patient <the test patient\'s 12 digits, e.g. 191212121212>] [--sandbox-writes] [--from YYYYMMDD] [--to YYYYMMDD]';

export class UsageError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function integer(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`${name} must be a whole number from 1 to ${max}, e.g. ${fallback}`);
  return n;
}

function flags(argv: readonly string[]): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i] ?? '';
    if (!['--base-url', '--patient', '--sandbox-writes', '--from', '--to'].includes(name)) throw new UsageError(`unknown argument ${name}; usage: ${USAGE}`);
    if (name === '--sandbox-writes') out.set(name, true);
    else {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value; usage: ${USAGE}`);
      out.set(name, value);
    }
  }
  return out;
}

function baseUrlOf(raw: string | true | undefined): string {
  if (typeof raw !== 'string') throw new UsageError(`--base-url is required; usage: ${USAGE}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError('--base-url must be an absolute URL, e.g. https://fhir.region.example.se/fhir/R4');
  }
  refusePlainRemote('--base-url', url, (m) => new UsageError(m));
  return url.href.replace(/\/+$/, '');
}

function dateOf(raw: string | true | undefined, name: string, fallback: string): string {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !isCompactDate(raw)) throw new UsageError(`${name} must be a date YYYYMMDD, e.g. 20250101`);
  return raw;
}

/** EHR_TLS_*, as the service reads them: a client certificate and its key together, and only for https. */
function tlsFilesOf(env: Env, baseUrl: string): EhrTlsFiles | undefined {
  const file = (name: string) => env[name]?.trim() || undefined;
  const files = { caFile: file('EHR_TLS_CA_FILE'), certFile: file('EHR_TLS_CERT_FILE'), keyFile: file('EHR_TLS_KEY_FILE') };
  if ((files.certFile === undefined) !== (files.keyFile === undefined)) throw new UsageError('EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE must be set together');
  if (Object.values(files).every((v) => v === undefined)) return undefined;
  if (!baseUrl.startsWith('https:')) throw new UsageError('EHR_TLS_* settings need an https:// --base-url');
  return files;
}

/** What the kit's own transport needs beside the checks' options: EHR_TLS_*, FHIR_AUTH and FHIR_MAX_PAGE_BYTES. */
export type ConformanceSettings = Omit<FhirConformanceOptions, 'exchange' | 'now'> & { tlsFiles?: EhrTlsFiles; auth: FhirAuth; maxPageBytes: number };

const DEFAULT_ID_ROOT = '1.2.752.99999.1.1';

export function parseConformanceArgs(argv: readonly string[], env: Env): ConformanceSettings {
  const f = flags(argv);
  const baseUrl = baseUrlOf(f.get('--base-url'));
  const tlsFiles = tlsFilesOf(env, baseUrl);
  const rawPatient = f.get('--patient');
  const patient = typeof rawPatient === 'string' ? parsePersonalIdentityNumber(rawPatient) : undefined;
  if (rawPatient !== undefined && patient === undefined) {
    throw new UsageError('--patient must be a personal identity or coordination number of 12 digits with a valid check digit, e.g. 191212121212');
  }
  const zone = env.EHR_TIMEZONE?.trim() || 'Europe/Stockholm';
  try {
    assertTimeZone(zone);
  } catch {
    throw new UsageError('EHR_TIMEZONE must be an IANA zone, e.g. Europe/Stockholm');
  }
  // The FHIR_* settings, read and checked as the service reads them. Only the shape of record ids
  // depends on FHIR_ID_ROOT (the kit's verdicts do not), so the kit lends the demo's where none is set.
  const fhir = readFhirSettings({ ...env, FHIR_ID_ROOT: env.FHIR_ID_ROOT?.trim() || DEFAULT_ID_ROOT }, true, (m) => new UsageError(m))!;
  return {
    baseUrl,
    ...(tlsFiles === undefined ? {} : { tlsFiles }),
    auth: fhir.auth,
    ...(patient === undefined ? {} : { patient }),
    sandboxWrites: f.get('--sandbox-writes') === true,
    zone,
    idRoot: fhir.idRoot,
    videoActionIdSystem: fhir.videoActionIdSystem,
    delegationTag: fhir.delegationTag,
    paymentIdSystem: fhir.paymentIdSystem,
    pageSize: fhir.pageSize,
    maxPages: fhir.maxPages,
    maxPageBytes: fhir.maxPageBytes,
    callTimeoutMs: integer(env, 'EHR_TIMEOUT_MS', 5000, 600_000),
    range: { from: `${dateOf(f.get('--from'), '--from', '19000101')}000000`, to: `${dateOf(f.get('--to'), '--to', '21001231')}235959` },
  };
}
