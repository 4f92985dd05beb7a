/**
 * docs/fhir-api.md, "Where", "CapabilityStatement" and "SMART discovery": the API answers at /fhir and at
 * the vendor's /api/open/fhir alike; the two discovery documents are open to anyone from any origin,
 * everything else needs a token; the CapabilityStatement lists every type served with read and
 * search and a `patient` parameter on patient-compartment types (what fhirclient's
 * `client.patient.request('Observation')` looks for), and the SMART configuration what an app needs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipe, statedBy } from '../../support/read-oracles.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, FHIR_JSON, get, matchesOf, NOW, outcomeOf, pid, smartToken, TOLVAN } from './fhir-calls.js';

/**
 * The resource types of each read's FHIR form (docs/fhir-api.md), as the read's folder states them by
 * hand (`formTypes` of its oracles.ts), not read from the forms.
 */
const FORM_TYPES = statedBy('formTypes');
/** Every type §7 serves: the records' types, the access log, and the referenced ones. */
const RECORD_TYPES = [...new Set([...[...FORM_TYPES.values()].flat(), 'AuditEvent'])].filter((type) => type !== 'Patient');
const REFERENCED_TYPES = ['Organization', 'Practitioner', 'PractitionerRole', 'Location', 'Medication', 'HealthcareService'] as const;
const SERVED = ['Patient', ...RECORD_TYPES, ...REFERENCED_TYPES];

interface CapabilityResource {
  type: string;
  interaction: { code: string }[];
  searchParam: { name: string; type: string }[];
  searchInclude?: string[];
}

describe('FHIR API: where it answers, and what it tells an app before sign-in', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    token = await smartToken(t, TOLVAN, 'patient/*.rs');
  }, 60_000);
  afterAll(async () => t.close());

  it('/fhir and /api/open/fhir give the same answers: discovery, searches, reads, refusals', async () => {
    const observations = bundleOf(await get(t, '/fhir/Observation?_count=1', token));
    const [observation] = matchesOf(observations);
    expect(observation).toBeDefined();
    const paths = [
      ['/metadata', undefined], ['/.well-known/smart-configuration', undefined],
      ['/Patient', token], [`/Patient/${pid(TOLVAN)}`, token], ['/Observation?_count=1', token],
      [`/Observation/${observation?.id ?? ''}`, token], ['/Observation/no-such-id', token], ['/Condition', undefined],
    ] as const;
    for (const [path, withToken] of paths) {
      const fhir = await get(t, `/fhir${path}`, withToken);
      const alias = await get(t, `/api/open/fhir${path}`, withToken);
      expect([path, alias.statusCode, alias.headers['content-type'], alias.body]).toEqual([path, fhir.statusCode, fhir.headers['content-type'], fhir.body]);
    }
    // Not a proof over refusals only: the pairs above hold real answers.
    expect((await get(t, `/api/open/fhir/Patient/${pid(TOLVAN)}`, token)).statusCode).toBe(200);
  });

  it('metadata and smart-configuration answer without key or token, to any browser origin', async () => {
    for (const prefix of ['/fhir', '/api/open/fhir']) {
      for (const path of ['/metadata', '/.well-known/smart-configuration']) {
        const res = await get(t, `${prefix}${path}`, undefined, { origin: 'https://any-app.example' });
        expect([path, res.statusCode, res.headers['access-control-allow-origin']]).toEqual([path, 200, '*']);
        // The CapabilityStatement is a FHIR resource; SMART's configuration is a plain JSON document.
        expect(res.headers['content-type']).toBe(path === '/metadata' ? FHIR_JSON : 'application/json; charset=utf-8');
      }
    }
  });

  it('every other path answers 401 login with the bare Bearer challenge without a token, with or without a key', async () => {
    const urls = [
      ...SERVED.map((type) => `/fhir/${type}`), ...SERVED.map((type) => `/fhir/${type}/some-id`),
      `/api/open/fhir/Patient/${pid(TOLVAN)}`, '/api/open/fhir/Observation',
    ];
    for (const url of urls) {
      for (const key of [null, undefined]) {
        const res = await t.call({ method: 'GET', url, key });
        const issue = outcomeOf(res, 401);
        expect([url, issue.code, res.headers['www-authenticate']]).toEqual([url, 'login', 'Bearer']);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      }
    }
    // The form-body search too.
    const post = await t.call({ method: 'POST', url: '/fhir/Observation/_search', key: null, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: '_count=1' });
    expect([post.statusCode, outcomeOf(post, 401).code]).toEqual([401, 'login']);
  });

  describe('the CapabilityStatement', () => {
    let statement: Record<string, unknown> & { rest: { mode: string; security: { service: { coding: { system: string; code: string }[] }[] }; resource: CapabilityResource[] }[] };
    beforeAll(async () => {
      statement = JSON.parse((await get(t, '/fhir/metadata')).body) as typeof statement;
    });
    const resources = () => statement.rest[0]?.resource ?? [];

    it('is a FHIR 4.0.1 server\'s, in JSON, secured by SMART-on-FHIR', () => {
      expect(statement).toMatchObject({ resourceType: 'CapabilityStatement', status: 'active', kind: 'instance', fhirVersion: '4.0.1' });
      expect(statement.format).toContain('json');
      expect(statement.rest).toHaveLength(1);
      expect(statement.rest[0]?.mode).toBe('server');
      expect(statement.rest[0]?.security.service).toContainEqual({
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }],
      });
    });

    it('names every type §7 serves, each once, with read and search-type', () => {
      expect(resources().map((r) => r.type).sort(), recipe('formTypes'))
        .toEqual([...SERVED].sort());
      for (const r of resources()) {
        // AuditEvent too (issue 45 item 6: docs/fhir-api.md#interactions lists read for it).
        expect([r.type, r.interaction.map((i) => i.code).sort()]).toEqual([r.type, ['read', 'search-type']]);
        // The access log is paged by its cursor: it has no `_id` to search by (docs/fhir-api.md#search).
        if (r.type === 'AuditEvent') expect(r.searchParam.map((p) => p.name)).not.toContain('_id');
        else expect(r.searchParam.map((p) => p.name), r.type).toContain('_id');
      }
    });

    it('gives every patient-compartment type a `patient` reference parameter, and Patient its identifier', () => {
      const byType = new Map(resources().map((r) => [r.type, r]));
      for (const type of RECORD_TYPES) {
        expect([type, byType.get(type)?.searchParam.find((p) => p.name === 'patient')]).toEqual([type, expect.objectContaining({ name: 'patient', type: 'reference' })]);
      }
      expect(byType.get('Patient')?.searchParam).toContainEqual(expect.objectContaining({ name: 'identifier', type: 'token' }));
      // The includes the fhir-r4 adapter sends (docs/upstream-fhir.md#0-at-a-glance) are declared.
      expect(byType.get('DiagnosticReport')?.searchInclude).toContain('DiagnosticReport:result');
    });

    it('issue 45 item 5: its oauth-uris name the authorize and token endpoints of the SMART configuration, not a link to them', async () => {
      const config = JSON.parse((await get(t, '/fhir/.well-known/smart-configuration')).body) as Record<string, string>;
      const security = statement.rest[0]?.security as { extension?: { url: string; extension: { url: string; valueUri: string }[] }[] };
      const uris = security.extension?.find((e) => e.url === 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris');
      const byName = Object.fromEntries((uris?.extension ?? []).map((e) => [e.url, e.valueUri]));
      expect(byName).toMatchObject({ authorize: config.authorization_endpoint, token: config.token_endpoint });
      expect(byName.authorize).toBe('https://issuer.test.example/auth');
      expect(Object.values(byName).every((uri) => URL.canParse(uri) && !uri.includes('#'))).toBe(true);
    });

    it('every type it declares is really served: a search of each with a token answers a Bundle, never 404', async () => {
      for (const r of resources()) {
        const res = await get(t, `/fhir/${r.type}?_count=0`, await smartToken(t, TOLVAN, 'patient/*.rs'));
        expect([r.type, res.statusCode]).toEqual([r.type, 200]);
      }
    });
  });

  it('the SMART configuration names the endpoints, PKCE S256, the grants, scopes and the capabilities of §7', async () => {
    const config = JSON.parse((await get(t, '/fhir/.well-known/smart-configuration')).body) as Record<string, unknown> & { capabilities: string[]; scopes_supported: string[] };
    expect(config).toMatchObject({
      authorization_endpoint: 'https://issuer.test.example/auth',
      token_endpoint: 'https://issuer.test.example/token',
      code_challenge_methods_supported: ['S256'],
    });
    expect(config.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'client_credentials']));
    expect([...config.capabilities].sort()).toEqual([
      'client-confidential-symmetric', 'client-public', 'context-standalone-patient', 'launch-standalone',
      'permission-patient', 'permission-user', 'permission-v1', 'permission-v2',
    ]);
    // The test issuer hands out no refresh tokens: no permission-offline, no offline_access.
    expect(config.scopes_supported).not.toContain('offline_access');
    expect(config.scopes_supported).toEqual(expect.arrayContaining(['launch/patient', 'patient/*.read', 'user/*.read', 'system/*.read', 'patient/Observation.rs']));
  });
});
