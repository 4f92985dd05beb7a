/**
 * `GET /fhir/Patient?identifier=<system>|<number>` (docs/fhir-api.md): a client finds a person by
 * their number under one of its accepted systems. A number is of one kind: a samordningsnummer
 * (coordination number, 60 added to the day of birth) given under the personnummer system, or the
 * other way round, is 400 saying which system the number belongs to, never found as if it matched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { bundleOf, get, matchesOf, NOW, outcomeOf, PERSONNUMMER, pid, TOLVAN } from './fhir-calls.js';

const GOSTA = '194608632396';
const SAMORDNINGSNUMMER = 'http://electronichealth.se/identifier/samordningsnummer';
const search = (system: string, number: string): string => `/fhir/Patient?identifier=${encodeURIComponent(`${system}|${number}`)}`;

describe('Patient search by identifier', () => {
  let t: TestApp;
  let client: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
    client = await t.clientToken({ scope: 'system/Patient.rs' });
  }, 60_000);
  afterAll(async () => t.close());

  it('finds each person under their number\'s own system, in either form', async () => {
    for (const [system, number] of [[PERSONNUMMER, TOLVAN], ['urn:oid:1.2.752.129.2.1.3.1', TOLVAN], [SAMORDNINGSNUMMER, GOSTA], ['urn:oid:1.2.752.129.2.1.3.3', GOSTA]] as const) {
      expect([system, matchesOf(bundleOf(await get(t, search(system, number), client))).map((p) => p.id)]).toEqual([system, [pid(number)]]);
    }
  });

  it('finds the person where one form of an OR list is under the number\'s own system, as the fhir-r4 adapter sends all four', async () => {
    for (const number of [TOLVAN, GOSTA]) {
      const every = [PERSONNUMMER, 'urn:oid:1.2.752.129.2.1.3.1', SAMORDNINGSNUMMER, 'urn:oid:1.2.752.129.2.1.3.3'].map((system) => `${system}|${number}`).join(',');
      const found = matchesOf(bundleOf(await get(t, `/fhir/Patient?identifier=${encodeURIComponent(every)}`, client))).map((p) => p.id);
      expect([number, found]).toEqual([number, [pid(number)]]);
    }
    const wrongOnly = [PERSONNUMMER, 'urn:oid:1.2.752.129.2.1.3.1'].map((system) => `${system}|${GOSTA}`).join(',');
    expect(outcomeOf(await get(t, `/fhir/Patient?identifier=${encodeURIComponent(wrongOnly)}`, client), 400).diagnostics).toMatch(/is a samordningsnummer/);
  });

  it('refuses a number under the other kind\'s system, an unknown system and a number that is none, each 400 saying what to send', async () => {
    const cases: [string, string, RegExp][] = [
      [PERSONNUMMER, GOSTA, /is a samordningsnummer.*samordningsnummer/],
      ['urn:oid:1.2.752.129.2.1.3.1', GOSTA, /is a samordningsnummer/],
      [SAMORDNINGSNUMMER, TOLVAN, /is a personnummer.*personnummer/],
      ['urn:example', TOLVAN, /personnummer or samordningsnummer system/],
      [PERSONNUMMER, '191212121213', /valid 12-digit identity number/],
    ];
    for (const [system, number, said] of cases) {
      const issue = outcomeOf(await get(t, search(system, number), client), 400);
      expect([system, number, issue.code, issue.diagnostics]).toEqual([system, number, 'invalid', expect.stringMatching(said)]);
      expect(issue.diagnostics).not.toContain(number);
    }
  });
});
