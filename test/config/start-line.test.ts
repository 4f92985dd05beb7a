/**
 * Issue 38: one info line at start says what runs (docs/operations.md#log-format): the EHR and where,
 * the audit store, the rate-limit store, the FHIR API, demo or production; never a credential that a
 * setting's URL carries (user, password, query).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { demoBanner, startLine } from '../../src/start/start-line.js';
import { CHAIN_KEY_ENV } from '../support/chain-key.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const DATA = path.resolve('/srv/pdas-data');
const EXAMPLE = path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json');

describe('the start line', () => {
  it('demo defaults: the embedded EHR on generated data, the audit file, limits in-process, the FHIR API, DEMO mode', () => {
    const { message, fields } = startLine(loadConfig({ DATA_DIR: DATA }));
    expect(message).toBe(`running: EHR embedded, generated demo data in ${path.join(DATA, 'demo-ehr')}; `
      + `audit trail in file ${path.join(DATA, 'audit', 'audit-trail.jsonl')}; rate limits in-process; FHIR API on; `
      + `release policy the example ${EXAMPLE} (demo mode without RELEASE_POLICY_FILE); DEMO mode`);
    expect(fields).toMatchObject({ rateLimitStore: 'in-process', fhirApi: 'on', mode: 'demo' });
  });

  it('a real deployment: every address without its user, password or query, and production mode', () => {
    const secrets = ['ehr-user', 'ehr-pass', 'ehr-token', 'db-pass', 'q-pass', 'redis-pass', 'registry-pass'];
    const { message, fields } = startLine(loadConfig({
      DATA_DIR: DATA, AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-hhhhhhhhhhhh', ...CHAIN_KEY_ENV,
      RELEASE_POLICY_FILE: EXAMPLE,
      EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'https://ehr-user:ehr-pass@ehr.region.example/base?token=ehr-token',
      DELEGATION_REGISTRY: 'fhir-r4', DELEGATION_REGISTRY_URL: 'https://x:registry-pass@registry.region.example/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1',
      DATABASE_URL: 'postgres://pdas:db-pass@db.region.example:5432/pdas?sslmode=require&password=q-pass',
      REDIS_URL: 'redis://:redis-pass@cache.region.example:6379/0', FHIR_API: 'off',
    }));
    expect(message).toBe('running: EHR xml-http at https://ehr.region.example/base; delegation registry fhir-r4 at https://registry.region.example/fhir; '
      + 'audit trail in PostgreSQL postgres://db.region.example:5432/pdas schema audit; rate limits in Redis redis://cache.region.example:6379/0; '
      + `FHIR API off; release policy file ${EXAMPLE}; production mode`);
    expect(fields).toEqual({
      ehr: 'xml-http at https://ehr.region.example/base', registry: 'fhir-r4 at https://registry.region.example/fhir',
      auditStore: 'PostgreSQL postgres://db.region.example:5432/pdas schema audit', rateLimitStore: 'Redis redis://cache.region.example:6379/0',
      fhirApi: 'off', releasePolicy: `file ${EXAMPLE}`, mode: 'production',
    });
    for (const secret of secrets) expect(JSON.stringify({ message, fields })).not.toContain(secret);
  });

  it('issue 52 item 18: RELEASE_POLICY_FILE=none is said as it is, never as a policy', () => {
    expect(startLine(loadConfig({ DATA_DIR: DATA, RELEASE_POLICY_FILE: 'none' })).fields.releasePolicy).toBe('none (RELEASE_POLICY_FILE=none: nothing withheld)');
  });

  it('the embedded EHR on documents of EHR_DATA_DIR names that folder', () => {
    expect(startLine(loadConfig({ DATA_DIR: DATA, EHR_DATA_DIR: '/srv/ehr-documents' })).fields.ehr).toBe(`embedded, documents in ${path.resolve('/srv/ehr-documents')}`);
  });

  it('issue 52 item 12: the terminal banner says DEMO MODE in demo mode only, never beside a production start\'s notices', () => {
    const demo = demoBanner(loadConfig({ DATA_DIR: DATA }), 'http://127.0.0.1:8080', ['demo subscription key: in /x']);
    expect(demo).toContain('Patient Data Access Service (DEMO MODE) on http://127.0.0.1:8080');
    expect(demo).toContain('demo subscription key: in /x');
    // The service's own authorization server pushes a notice in production (src/start/adapter-selection.ts).
    const production = loadConfig({
      DATA_DIR: DATA, AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-hhhhhhhhhhhh', ...CHAIN_KEY_ENV, RELEASE_POLICY_FILE: 'none',
    });
    expect(demoBanner(production, 'http://127.0.0.1:8080', ['authorization server: https://api.region.example/auth (sign-in at https://login.region.example)'])).toBeUndefined();
  });
});
