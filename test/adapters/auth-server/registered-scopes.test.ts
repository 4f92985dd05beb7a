/**
 * docs/sign-in.md, "Registering an app": an app asks for what its registration's `scope` lists, exactly
 * or under a SMART wildcard, and no more. A wildcard registered to read (`patient/*.rs`) covers the reads
 * of every type and no other letter: asked letters beyond reading once passed as long as one of them was
 * r or s, so an app registered for reads alone was granted `patient/Consent.cruds` and shared the
 * patient's record, or made subscriptions (hostile review helper-128, F1).
 */
import { describe, expect, it } from 'vitest';
import { parseClientsFile } from '../../../src/adapters/auth-server/region-clients.js';

function registered(scope: string): (asked: string) => boolean {
  const [client] = parseClientsFile(JSON.stringify([{ client_id: 'thirdapp', redirect_uris: ['https://app.example.se/cb'], token_endpoint_auth_method: 'none', scope }]), 'clients.json');
  const allows = client?.allows;
  if (allows === undefined) throw new Error('a registered app has a scope check');
  return allows;
}

describe('what a registered scope lets an app ask for', () => {
  it('a read wildcard covers the reads of every type, in v1 and v2 forms, and nothing that writes or manages', () => {
    const allows = registered('openid fhirUser launch/patient patient/*.rs');
    for (const scope of ['patient/Observation.rs', 'patient/Observation.r', 'patient/Observation.s', 'patient/Observation.read', 'patient/*.rs', 'patient/*.read', 'patient/Consent.rs']) {
      expect([scope, allows(scope)]).toEqual([scope, true]);
    }
    for (const scope of ['patient/Consent.cruds', 'patient/Consent.cs', 'patient/Consent.crs', 'patient/Consent.rds', 'patient/Consent.cud',
      'patient/Subscription.cs', 'patient/Subscription.cruds', 'patient/Observation.cruds', 'patient/Observation.rus', 'patient/Observation.write',
      'patient/Observation.*', 'patient/*.cruds', 'user/Observation.rs']) {
      expect([scope, allows(scope)]).toEqual([scope, false]);
    }
  });

  it('v1 read is read and search, v1 write is create, update and delete', () => {
    expect(registered('patient/*.read')('patient/Observation.rs')).toBe(true);
    expect(registered('patient/*.read')('patient/Observation.cs')).toBe(false);
    expect(registered('patient/Consent.write')('patient/Consent.cud')).toBe(true);
    expect(registered('patient/Consent.write')('patient/Consent.crud')).toBe(false);
    expect(registered('patient/Consent.cruds')('patient/Consent.write')).toBe(true);
    expect(registered('patient/Consent.cruds')('patient/Consent.read')).toBe(true);
    expect(registered('patient/Consent.*')('patient/Consent.*')).toBe(true);
    expect(registered('patient/Consent.rs')('patient/Consent.*')).toBe(false);
  });

  it('a category registered stays: the same category or none asked is never widened', () => {
    const allows = registered('patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory');
    expect(allows('patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory')).toBe(true);
    expect(allows('patient/Observation.rs')).toBe(false);
    expect(allows('patient/Observation.cruds?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory')).toBe(false);
  });
});
