import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { docsRedirectUri } from '../../src/start/adapter-selection.js';
import { isLoopbackHost } from '../../src/start/transport-settings.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

const dir = mkdtempSync(path.join(tmpdir(), 'pdas-transport-'));
const file = (name: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, 'placeholder (only readability is checked here)');
  return p;
};
const CERT = file('cert.pem');
const KEY = file('key.pem');
const CA = file('ca.pem');
/** TLS files and a remote EHR name a real deployment, which needs its own issuer and keys (issue 34 item 3, src/start/demo-mode.ts). */
const ISSUER = { AUTH_ISSUER: 'https://login.example.test', SUBSCRIPTION_KEYS: 'app:subscription-key-hhhhhhhhhhhh', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' };

describe('issue 15 item 1: where plain HTTP may listen, and which TLS settings go together', () => {
  it('plain HTTP on a non-loopback HOST is refused at start unless ALLOW_PLAIN_HTTP=true', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/ALLOW_PLAIN_HTTP=true/);
    expect(() => loadConfig({ HOST: '::', ALLOW_PLAIN_HTTP: 'false' })).toThrow(ConfigError);
    expect(loadConfig({ HOST: '0.0.0.0', ALLOW_PLAIN_HTTP: 'true' })).toMatchObject({ allowPlainHttp: true, tls: undefined });
    expect(loadConfig({}).allowPlainHttp).toBe(false);
    expect(() => loadConfig({ ALLOW_PLAIN_HTTP: 'yes' })).toThrow(/ALLOW_PLAIN_HTTP must be true or false/);
  });

  it('any HOST may serve HTTPS; the files are resolved and must be readable', () => {
    const config = loadConfig({ ...ISSUER, HOST: '0.0.0.0', TLS_CERT_FILE: CERT, TLS_KEY_FILE: KEY, TLS_CLIENT_CA_FILE: CA });
    expect(config.tls).toEqual({ certFile: CERT, keyFile: KEY, clientCaFile: CA });
    expect(() => loadConfig({ TLS_CERT_FILE: path.join(dir, 'missing.pem'), TLS_KEY_FILE: KEY })).toThrow(/TLS_CERT_FILE cannot be read/);
  });

  it('half a pair, or a client CA without a certificate, is refused', () => {
    expect(() => loadConfig({ TLS_CERT_FILE: CERT })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE must be set together/);
    expect(() => loadConfig({ TLS_KEY_FILE: KEY })).toThrow(/must be set together/);
    expect(() => loadConfig({ TLS_CLIENT_CA_FILE: CA })).toThrow(/TLS_CLIENT_CA_FILE needs/);
    expect(() => loadConfig({ EHR_TLS_CERT_FILE: CERT })).toThrow(/EHR_TLS_CERT_FILE and EHR_TLS_KEY_FILE/);
  });

  it('issue 15 item 2: EHR_TLS_* need an https EHR_BASE_URL; alone, the CA bundle is enough', () => {
    expect(() => loadConfig({ EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:8090', EHR_TLS_CA_FILE: CA })).toThrow(/https:\/\/ EHR_BASE_URL/);
    expect(loadConfig({ ...ISSUER, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'https://127.0.0.1:8090', EHR_TLS_CA_FILE: CA }).ehrTls)
      .toEqual({ caFile: CA, certFile: undefined, keyFile: undefined });
    expect(loadConfig({}).ehrTls).toBeUndefined();
  });

  it('issue 20 item 5f: a plain http:// EHR_BASE_URL to a host that is not loopback stops the start, naming the setting', () => {
    for (const url of ['http://ehr.region.example/', 'http://10.0.0.5:8090', 'http://[fe80::1]:8090', 'http://127.example.test']) {
      expect(() => loadConfig({ EHR_ADAPTER: 'xml-http', EHR_BASE_URL: url })).toThrow(ConfigError);
      expect(() => loadConfig({ EHR_ADAPTER: 'xml-http', EHR_BASE_URL: url })).toThrow(/^EHR_BASE_URL .*https:\/\//);
      // Whichever adapter is chosen: the rule belongs to the setting, so every remote adapter gets it.
      expect(() => loadConfig({ EHR_BASE_URL: url })).toThrow(/^EHR_BASE_URL /);
    }
    for (const url of ['http://127.0.0.1:8090', 'http://localhost:8090/ehr', 'http://[::1]:8090', 'https://ehr.region.example/', 'HTTPS://ehr.region.example']) {
      expect(loadConfig({ ...ISSUER, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: url }).ehrBaseUrl).toBe(new URL(url).toString().replace(/\/$/, ''));
    }
    expect(() => loadConfig({ EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'ftp://ehr.region.example/' })).toThrow(/^EHR_BASE_URL /);
  });

  it('loopback is 127.0.0.0/8, ::1 and localhost only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.test', '128.0.0.1', '127.example.test']) expect(isLoopbackHost(host)).toBe(false);
  });
});

describe('the /docs page\'s OAuth redirect registered at the demo issuer', () => {
  // Demo mode never has TLS files (issue 34 item 3); the https form is kept for a config made otherwise.
  it('is in the scheme the API listens in: https once TLS_CERT_FILE is set (an http one would never match the page)', () => {
    const tls = { certFile: CERT, keyFile: KEY, clientCaFile: undefined };
    expect(docsRedirectUri(loadConfig({ PORT: '8080' }))).toBe('http://127.0.0.1:8080/docs/static/oauth2-redirect.html');
    expect(docsRedirectUri({ host: '127.0.0.1', port: 8443, tls })).toBe('https://127.0.0.1:8443/docs/static/oauth2-redirect.html');
    expect(docsRedirectUri({ host: '::1', port: 8443, tls })).toBe('https://[::1]:8443/docs/static/oauth2-redirect.html');
  });
});
