/** EHR_ADAPTER=fhir-r4, its FHIR_* settings and DELEGATION_REGISTRY (docs/upstream-fhir.md#settings): read, defaulted, refused by name. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { DEFAULT_FHIR_SCOPE } from '../../src/start/fhir-settings.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';

const BASE = { DATA_DIR: '/tmp/pdas-config-test' };
const FHIR = { ...BASE, EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' };
/** A FHIR client key and a remote registry name a real deployment, which needs its own issuer and keys (issue 34 item 3, src/start/demo-mode.ts). */
const ISSUER = { AUTH_ISSUER: 'https://login.example.test', SUBSCRIPTION_KEYS: 'app:subscription-key-iiiiiiiiiiii', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none' };

/** The ConfigError's message; `started` when the settings were accepted. */
function refusal(env: Record<string, string>): string {
  let message = 'started';
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    message = (err as Error).message;
  }
  return message;
}

describe('EHR_ADAPTER=fhir-r4', () => {
  it('reads the defaults of the FHIR settings', () => {
    expect(loadConfig(FHIR).fhir).toEqual({
      auth: { kind: 'none' }, pageSize: 100, maxPages: 20, maxPageBytes: 4 * 1024 * 1024, idRoot: '1.2.752.99999.1.1', videoActionIdSystem: undefined,
      delegationTag: { system: 'http://example.org/fhir/pdas/CodeSystem/registry', code: 'delegation' },
      paymentIdSystem: 'http://example.org/fhir/pdas/identifier/appointment-payment',
    });
    expect(loadConfig(BASE).fhir).toBeUndefined();
    expect(DEFAULT_FHIR_SCOPE).toContain('system/Condition.read');
    expect(DEFAULT_FHIR_SCOPE).toContain('system/PaymentNotice.write');
  });

  it('refuses, naming the setting, a missing base URL or id root, plain http to a remote host, and malformed values', () => {
    expect(refusal({ ...BASE, EHR_ADAPTER: 'fhir-r4' })).toMatch(/EHR_ADAPTER=fhir-r4 needs EHR_BASE_URL/);
    expect(refusal({ ...FHIR, FHIR_ID_ROOT: '' })).toMatch(/FHIR_ID_ROOT must be set to an OID, e.g. 1\.2\.752/);
    expect(refusal({ ...FHIR, FHIR_ID_ROOT: 'urn:oid:1.2.3' })).toMatch(/FHIR_ID_ROOT/);
    expect(refusal({ ...FHIR, EHR_BASE_URL: 'http://fhir.region.example.se/fhir' })).toMatch(/EHR_BASE_URL must be https:\/\//);
    expect(refusal({ ...FHIR, FHIR_PAGE_SIZE: '0' })).toMatch(/FHIR_PAGE_SIZE must be an integer from 1 to 1000/);
    expect(refusal({ ...FHIR, FHIR_MAX_PAGES: 'many' })).toMatch(/FHIR_MAX_PAGES/);
    expect(refusal({ ...FHIR, FHIR_AUTH: 'basic' })).toMatch(/FHIR_AUTH must be none or smart-backend/);
    expect(refusal({ ...FHIR, FHIR_DELEGATION_TAG: 'delegation' })).toMatch(/FHIR_DELEGATION_TAG must be system\|code/);
    expect(refusal({ ...FHIR, FHIR_AUTH: 'smart-backend' })).toMatch(/needs FHIR_TOKEN_URL/);
    expect(refusal({ ...BASE, EHR_ADAPTER: 'fhir' })).toMatch(/EHR_ADAPTER must be one of embedded, xml-http, fhir-r4/);
  });

  it('reads FHIR_MAX_PAGE_BYTES from 64 KiB to the 10 MiB every EHR answer is capped at, and refuses any other value by name', () => {
    expect(loadConfig({ ...FHIR, FHIR_MAX_PAGE_BYTES: '65536' }).fhir?.maxPageBytes).toBe(65536);
    expect(loadConfig({ ...FHIR, FHIR_MAX_PAGE_BYTES: '10485760' }).fhir?.maxPageBytes).toBe(10485760);
    for (const value of ['0', '65535', '10485761', '4MiB', '-1', '4194304.5']) {
      expect(refusal({ ...FHIR, FHIR_MAX_PAGE_BYTES: value }), value).toBe('FHIR_MAX_PAGE_BYTES must be an integer from 65536 to 10485760, e.g. 4194304');
    }
  });

  it('reads FHIR_AUTH=smart-backend with its token endpoint (https unless loopback), client and key file', () => {
    const smart = { ...FHIR, ...ISSUER, FHIR_AUTH: 'smart-backend', FHIR_TOKEN_URL: 'https://auth.region.example.se/token', FHIR_CLIENT_ID: 'pdas', FHIR_CLIENT_KEY_FILE: 'package.json' };
    expect(loadConfig(smart).fhir?.auth).toMatchObject({ kind: 'smart-backend', clientId: 'pdas', scope: DEFAULT_FHIR_SCOPE });
    expect(refusal({ ...smart, FHIR_TOKEN_URL: 'http://auth.region.example.se/token' })).toMatch(/FHIR_TOKEN_URL must be https:\/\//);
    expect(refusal({ ...smart, FHIR_CLIENT_KEY_FILE: '/nonexistent/key.pem' })).toMatch(/FHIR_CLIENT_KEY_FILE cannot be read/);
  });
});

describe('DELEGATION_REGISTRY', () => {
  it('is the EHR adapter\'s own by default, and another kind needs its own URL', () => {
    expect(loadConfig(FHIR)).toMatchObject({ delegationRegistry: 'fhir-r4', delegationRegistryUrl: undefined });
    expect(loadConfig(BASE)).toMatchObject({ delegationRegistry: 'embedded' });
    expect(refusal({ ...FHIR, DELEGATION_REGISTRY: 'xml-http' })).toMatch(/DELEGATION_REGISTRY=xml-http beside EHR_ADAPTER=fhir-r4 needs DELEGATION_REGISTRY_URL/);
    expect(loadConfig({ ...FHIR, ...ISSUER, DELEGATION_REGISTRY: 'xml-http', DELEGATION_REGISTRY_URL: 'https://registry.region.example.se' }))
      .toMatchObject({ delegationRegistry: 'xml-http', delegationRegistryUrl: 'https://registry.region.example.se' });
    expect(refusal({ ...FHIR, DELEGATION_REGISTRY: 'xml-http', DELEGATION_REGISTRY_URL: 'http://registry.region.example.se' })).toMatch(/DELEGATION_REGISTRY_URL must be https/);
    expect(refusal({ ...BASE, DELEGATION_REGISTRY: 'ldap' })).toMatch(/DELEGATION_REGISTRY must be one of/);
  });

  it('reads the FHIR settings for a FHIR registry beside another EHR', () => {
    const env = { ...BASE, DELEGATION_REGISTRY: 'fhir-r4', DELEGATION_REGISTRY_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' };
    expect(loadConfig(env).fhir?.idRoot).toBe('1.2.752.99999.1.1');
  });
});
