/**
 * Issue 57 item 5: `npm run demo:token` can ask for SMART scopes. `--smart` (or a --scope of SMART
 * scopes) names the FHIR base the authorization is for (`aud`, which the demo issuer requires of
 * every SMART authorization: without it the sign-in failed), and the token it prints reads /fhir.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { demoTokenRequest, SMART_SCOPES } from '../../../scripts/demo-token/request.js';
import { demoPersonToken } from '../../../src/dev/demo-issuer/demo-token.js';
import { startDemoService, type DemoService } from './smart-flow.js';

const MARTA = '198112189876';
const scopesOf = (token: string): string[] =>
  String((JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { scope?: string }).scope).split(' ');

describe('demo:token asks for SMART scopes', () => {
  it('--smart asks for the SMART scopes, for {PUBLIC_BASE_URL}/fhir, PORT\'s or the one given', () => {
    const ask = (argv: string[], env: Record<string, string> = {}) => demoTokenRequest(['--person', MARTA, ...argv], env);
    expect(ask(['--smart'], { PUBLIC_BASE_URL: 'https://pdas.example/' })).toMatchObject({ signIn: { scopes: [...SMART_SCOPES], aud: 'https://pdas.example/fhir' } });
    expect(ask(['--scope', 'patient/Observation.rs'], { PORT: '9090' })).toMatchObject({ signIn: { aud: 'http://127.0.0.1:9090/fhir' } });
    expect(ask(['--smart', '--aud', 'http://h/api/open/fhir', '--pick', 'Lilla'])).toMatchObject({ signIn: { aud: 'http://h/api/open/fhir', pick: 'Lilla' } });
    // The COS API's scopes stay plain OAuth, with no aud.
    expect(ask(['--scope', 'user/Appointment-read'])).not.toHaveProperty('signIn.aud');
    expect(ask(['--smart', '--scope', 'user/Appointment-read'])).toHaveProperty('problem');
    expect(demoTokenRequest(['--help'], {})).toEqual({ help: true });
  });

  describe('against the demo service', () => {
    let service: DemoService;
    beforeAll(async () => {
      service = await startDemoService();
    }, 60_000);
    afterAll(async () => service?.close());

    it('gets a token with the SMART scopes that reads the person\'s FHIR Patient', async () => {
      const asked = demoTokenRequest(['--person', MARTA, '--smart', '--issuer', service.smart.issuer], { PUBLIC_BASE_URL: service.base });
      if (!('signIn' in asked)) throw new Error('no sign-in asked for');
      const token = await demoPersonToken(asked.signIn);
      // The token carries the resource scopes; launch/patient and fhirUser are the grant's context.
      expect(scopesOf(token)).toContain('patient/*.rs');
      const answer = await request(`${service.fhirBase}/Patient`, { headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' } });
      const bundle = await answer.body.json() as { total?: number; entry?: unknown[] };
      expect(answer.statusCode).toBe(200);
      expect(bundle.entry?.length).toBe(1);
    }, 60_000);
  });
});
