import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, READ_NAMES, type OperationName } from '../../src/domain/operations/table.js';
import { forTheDocsPage } from '../../src/http/openapi/authorize-dialog.js';
import { exampleOf } from '../../src/http/openapi/examples.js';
import { securitySchemes } from '../../src/http/openapi/security.js';
import { collectOpenApiExamples } from '../support/openapi-examples.js';
import { lintOpenApi, publishedDocument } from '../support/openapi-lint.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'put', 'post'];
/** The spec's operations (the access log of docs/contract.md#what-the-law-gives-the-patient is documented by its own route). */
const SPEC_OPERATIONS = new Set(['registerPayment', 'changeAppointment', 'getAppointments', 'getPatient', 'getContacts', 'getAttentionSignals',
  'getVideoMeetings', 'getMedications', 'getJournalNotes']);
const operationsOf = (doc: Json): Array<{ path: string; method: string; op: Json }> =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).filter(([m]) => METHODS.includes(m)).map(([method, op]) => ({ path, method, op: op as Json })));

/** A response, its $ref followed. */
const resolved = (doc: Json, response: Json): Json =>
  typeof response.$ref === 'string' ? doc.components.responses[response.$ref.split('/').at(-1) ?? ''] : response;

describe('issue 13 item 5: an OpenAPI document an integrator can generate a client from', () => {
  let doc: Json;
  beforeAll(async () => {
    doc = await publishedDocument();
  });

  // Spectral loads its rulesets for a few seconds of CPU; on a busy machine that is more.
  it('issue 13 item 5: lints clean with spectral:oas and the OWASP ruleset (.spectral.yaml), warnings included', { timeout: 60_000 }, async () => {
    // A request string without a bound, in a parameter and in a body, must be caught: the waivers cover answers only.
    const broken = structuredClone(doc);
    delete broken.components.schemas.Payment.properties.contactId.maxLength;
    delete broken.paths['/patients/contacts'].get.parameters.find((p: Json) => p.name === 'fromDateTime').schema.maxLength;
    // And an answer without rate-limit headers (the rule that replaces OWASP's rate-limit).
    broken.paths['/patients/videomeetings'].get.responses['200'].headers = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
    const [clean, caught = []] = await lintOpenApi(doc, broken);
    expect(clean).toEqual([]);
    expect(caught.map((f) => `${f.code} ${f.path.join('.')}`).sort()).toEqual([
      'owasp:api8:2023-define-cors-origin paths./patients/videomeetings.get.responses.200.headers',
      'rate-limit-headers paths./patients/videomeetings.get.responses.200.headers',
      'request-string-limit components.schemas.Payment.properties.contactId',
      'request-string-limit paths./patients/contacts.get.parameters.0.schema',
    ].sort());
  });

  it('issue 13 item 5: carries the package version and both credentials as security schemes, required together on every operation with its scope', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
    const schemes = doc.components.securitySchemes;
    expect(schemes.subscriptionKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key' });
    expect(schemes.subscriptionKeyQuery).toMatchObject({ type: 'apiKey', in: 'query', name: 'subscription-key' });
    const allScopes = [...new Set(Object.values(OPERATIONS).map((o) => o.scope.name))].sort();
    expect(schemes.oauth2.type).toBe('oauth2');
    // One sign-in flow for the docs page (issue 22 item 7): a browser page cannot keep a client secret.
    expect(Object.keys(schemes.oauth2.flows)).toEqual(['authorizationCode']);
    expect(schemes.oauth2.flows.authorizationCode).toMatchObject({ authorizationUrl: 'http://127.0.0.1:8081/auth', tokenUrl: 'http://127.0.0.1:8081/token' });
    for (const flow of Object.values(schemes.oauth2.flows) as Json[]) expect(Object.keys(flow.scopes).sort()).toEqual(['openid', ...allScopes]);
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThanOrEqual(18); // the spec's nine paths and methods, each at the vendor path too
    for (const { path, method, op } of operations) {
      const name = String(op.operationId).replace('AtVendorPath', '') as keyof typeof OPERATIONS;
      const scope = OPERATIONS[name].scope.name;
      expect([path, method, op.security]).toEqual([path, method, [{ subscriptionKey: [], oauth2: [scope] }, { subscriptionKeyQuery: [], oauth2: [scope] }]]);
      // The key is asked for once, by the schemes: no credential among the parameters.
      const names = (op.parameters ?? []).map((p: Json) => String(p.name).toLowerCase());
      expect(names.filter((n: string) => ['ocp-apim-subscription-key', 'authorization', 'subscription-key'].includes(n))).toEqual([]);
    }
  });

  it('issue 47 item 3: the docs page\'s copy leaves the key in the query out of the Authorize dialog; the published document keeps it', () => {
    const published = structuredClone(doc);
    const page = forTheDocsPage(structuredClone(doc));
    expect(doc).toEqual(published);
    expect(Object.keys(page.components.securitySchemes)).toEqual(['subscriptionKey', 'oauth2']);
    for (const { path, method, op } of operationsOf(page)) {
      expect([path, method, op.security]).toEqual([path, method, [{ subscriptionKey: [], oauth2: [OPERATIONS[String(op.operationId).replace('AtVendorPath', '') as OperationName].scope.name] }]]);
    }
  });

  it('issue 13 item 5: names a demo issuer elsewhere, or another issuer by its discovery document', () => {
    const other = securitySchemes({ kind: 'issuer', issuer: 'https://login.example.org/realm' }).oauth2;
    expect(other).toMatchObject({ type: 'openIdConnect', openIdConnectUrl: 'https://login.example.org/realm/.well-known/openid-configuration' });
    expect(securitySchemes({ kind: 'demo', issuer: 'http://127.0.0.1:9999' }).oauth2).toMatchObject({
      flows: { authorizationCode: { authorizationUrl: 'http://127.0.0.1:9999/auth', tokenUrl: 'http://127.0.0.1:9999/token' } },
    });
  });

  it('issue 34 item 11d: with a real AUTH_ISSUER the document says nothing of a demo issuer, demo mode or demo data, anywhere', async () => {
    const real = await publishedDocument({ kind: 'issuer', issuer: 'https://login.region.example/realms/pdas' });
    const text = JSON.stringify(real);
    // Demographic information is no demo.
    expect(text.match(/.{0,60}demo(?!graph).{0,60}/gi) ?? []).toEqual([]);
    expect(text).toContain('https://login.region.example/realms/pdas/.well-known/openid-configuration');
    // The demo's own document still guides a newcomer through it.
    expect(JSON.stringify(doc)).toMatch(/Demo mode: three clicks/);
  });

  it('issue 13 item 5: gives every operation a tag, summary and description; vendor paths have their own tag', () => {
    const tags = (doc.tags as Json[]).map((t) => t.name);
    for (const { path, op } of operationsOf(doc)) {
      expect([path, op.tags?.length, typeof op.summary, typeof op.description]).toEqual([path, 1, 'string', 'string']);
      expect(tags).toContain(op.tags[0]);
      const vendor = path.startsWith('/api/open/') || path.startsWith('/open/api/');
      expect([path, op.tags[0] === 'Vendor paths', String(op.operationId).endsWith('AtVendorPath')]).toEqual([path, vendor, vendor]);
    }
  });

  it('issue 13 item 5: documents every answer: no "Default Response", the headers a client reads, an example from the demo data', () => {
    for (const { path, method, op } of operationsOf(doc)) {
      for (const [status, raw] of Object.entries(op.responses as Json)) {
        const response = resolved(doc, raw as Json);
        const where = `${method} ${path} ${status}`;
        expect([where, response.description]).not.toEqual([where, 'Default Response']);
        const headers = Object.keys(response.headers ?? {});
        expect([where, headers.includes('X-Request-Id')]).toEqual([where, true]);
        if (status === '401' || status === '403') expect([where, headers]).toEqual([where, expect.arrayContaining(['WWW-Authenticate'])]);
        if (status === '429' || status === '503') expect([where, headers]).toEqual([where, expect.arrayContaining(['Retry-After'])]);
        const media = response.content['application/json'];
        if (SPEC_OPERATIONS.has(String(op.operationId).replace('AtVendorPath', ''))) {
          expect([where, media.example !== undefined || media.examples !== undefined]).toEqual([where, true]);
        }
      }
      // Nothing pre-filled that would make "Try it out" answer [] (dates the demo data does not have).
      for (const p of op.parameters ?? []) expect([idOf(op), p.name, p.example, p.schema.example]).toEqual([idOf(op), p.name, undefined, undefined]);
    }
    expect(Object.keys(doc.components.headers).sort()).toEqual(expect.arrayContaining(['Retry-After', 'WWW-Authenticate', 'X-Request-Id']));
  });

  it('issue 13 item 5: names its schemas (components.schemas), none as def-N', () => {
    const names = Object.keys(doc.components.schemas);
    expect(names).toEqual(expect.arrayContaining([
      'AppointmentChange', 'Payment', 'ResultRecord', 'BookedAppointmentsResult', 'VideoMeeting', 'PrescriptionRecord',
      'JournalNoteRecord', 'PatientRecord', 'StatusError', 'ErrorResponse',
    ]));
    expect(names.filter((n) => /^def-\d+$/.test(n))).toEqual([]);
    const booked = doc.paths['/patients/appointments'].get.responses['200'].content['application/json'].schema;
    expect(booked).toEqual({ type: 'array', items: { $ref: '#/components/schemas/BookedAppointmentsResult' } });
  });

  it('issue 13 item 5: the examples are what the demo data answers today (rerun npm run openapi:examples after changing either)', { timeout: 60_000 }, async () => {
    const examples = await collectOpenApiExamples();
    expect(Object.keys(examples)).toEqual(expect.arrayContaining([...READ_NAMES, 'changeAppointment', 'registerPayment']));
    // One operation at a time, so a failure names the one whose example is stale.
    for (const [operation, example] of Object.entries(examples)) {
      expect(exampleOf(operation as OperationName), `${operation}: rerun npm run openapi:examples`).toEqual(example);
    }
  });
});

function idOf(op: Json): string {
  return String(op.operationId);
}
