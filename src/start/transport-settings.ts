/**
 * The transport settings of docs/contract.md#settings: HTTPS towards callers (TLS_*), mutual TLS towards the EHR
 * (EHR_TLS_*), and where plain HTTP may listen (ALLOW_PLAIN_HTTP). Fails closed: a half-given pair,
 * a file that cannot be read, or plain HTTP on a reachable address without the explicit opt-in stops
 * the start instead of serving something weaker than the operator asked for.
 */
import { accessSync, constants } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ServerTlsFiles {
  certFile: string;
  keyFile: string;
  /** Set: every caller must present a certificate signed by this CA (an API gateway). */
  clientCaFile: string | undefined;
}

export interface EhrTlsFiles {
  /** Undefined: the system CAs. */
  caFile: string | undefined;
  certFile: string | undefined;
  keyFile: string | undefined;
}

export interface TransportSettings {
  /** Undefined: plain HTTP. */
  tls: ServerTlsFiles | undefined;
  allowPlainHttp: boolean;
  /** Undefined: no EHR_TLS_* setting was given. */
  ehrTls: EhrTlsFiles | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** 127.0.0.0/8, ::1 and localhost: addresses nothing outside this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function readTransportSettings(
  env: Env, host: string, ehrBaseUrl: string | undefined, fail: (message: string) => Error,
): TransportSettings {
  const file = (name: string): string | undefined => {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') return undefined;
    const resolved = path.resolve(raw);
    try {
      accessSync(resolved, constants.R_OK);
    } catch {
      throw fail(`${name} cannot be read: ${resolved}`);
    }
    return resolved;
  };
  const allowRaw = env.ALLOW_PLAIN_HTTP?.trim().toLowerCase() ?? '';
  if (!['', 'true', 'false'].includes(allowRaw)) throw fail('ALLOW_PLAIN_HTTP must be true or false');
  const allowPlainHttp = allowRaw === 'true';

  const certFile = file('TLS_CERT_FILE');
  const keyFile = file('TLS_KEY_FILE');
  const clientCaFile = file('TLS_CLIENT_CA_FILE');
  if ((certFile === undefined) !== (keyFile === undefined)) throw fail('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  if (clientCaFile !== undefined && certFile === undefined) throw fail('TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE');
  const tls = certFile !== undefined && keyFile !== undefined ? { certFile, keyFile, clientCaFile } : undefined;
  if (tls === undefined && !isLoopbackHost(host) && !allowPlainHttp) {
    throw fail(`HOST ${host} is not a loopback address: set TLS_CERT_FILE and TLS_KEY_FILE, or ALLOW_PLAIN_HTTP=true behind a TLS-terminating gateway`);
  }

  if (ehrBaseUrl !== undefined) refusePlainRemote('EHR_BASE_URL', new URL(ehrBaseUrl), fail);

  const ehrTls = { caFile: file('EHR_TLS_CA_FILE'), certFile: file('EHR_TLS_CERT_FILE'), keyFile: file('EHR_TLS_KEY_FILE') };
  if ((ehrTls.certFile === undefined) !== (ehrTls.keyFile === undefined)) throw fail('EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE must be set together');
  const anyEhrTls = Object.values(ehrTls).some((v) => v !== undefined);
  // TLS settings for an http:// EHR would be silently unused: the operator believes the link is protected.
  if (anyEhrTls && ehrBaseUrl !== undefined && !ehrBaseUrl.startsWith('https:')) throw fail('EHR_TLS_* settings need an https:// EHR_BASE_URL');
  return { tls, allowPlainHttp, ehrTls: anyEhrTls ? ehrTls : undefined };
}

/**
 * Identity numbers travel in the EHR's paths (and a FHIR server's tokens in its requests), so they go
 * in clear text only to this machine; the rule belongs to each URL setting itself, so every adapter
 * that calls a remote EHR, registry or token endpoint is held to it.
 */
export function refusePlainRemote(name: string, url: URL, fail: (message: string) => Error): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return;
  throw fail(`${name} must be https:// for ${url.host} (identity numbers travel in its paths); plain http:// is allowed only to a loopback host`);
}

/** The EHR_TLS_* files' contents, for the EHR connection pool. */
export async function readEhrTls(files: EhrTlsFiles): Promise<{ ca?: Buffer; cert?: Buffer; key?: Buffer }> {
  const read = (file: string | undefined): Promise<Buffer | undefined> => (file === undefined ? Promise.resolve(undefined) : readFile(file));
  const [ca, cert, key] = await Promise.all([read(files.caFile), read(files.certFile), read(files.keyFile)]);
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}
