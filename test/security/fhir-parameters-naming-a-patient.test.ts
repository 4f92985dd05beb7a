import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { identityNumbersIn } from '../support/log-grep.js';
import { startTestAppOn, type AnyTestApp, type EhrVariant } from '../support/test-app.js';
import { countEhrCalls } from './support/ehr-calls.js';
import { malformedLogLines, UsedSecrets } from './support/logs.js';
import { DEMO, DEMO_PEOPLE } from './support/oracles.js';
import { overBothEhrs, STEADY } from './support/runs.js';
import {
  APP, expectFhirAnswer, FHIR_SEARCH_ROUTES, fhirRequest, issueOf, type FhirRouteCase, type SearchBundle,
} from './support/fhir-routes.js';

/**
 * Issue 44 item 5, threat 57 of docs/threat-model.md: no search value that names a person reaches a
 * link. Over every search route of the route table (every type served, GET and POST `_search`, both
 * prefixes): an identity number in every spelling in `_id` and each token is 400 naming the parameter
 * before the EHR is asked, and a product code that merely holds digits is taken and linked as sent.
 * Expected answers come from docs/fhir-api.md#search, written here.
 */

const { MARTA } = DEMO;
const used = new UsedSecrets();
for (const id of DEMO_PEOPLE) used.identity(id);
const logs: string[] = [];

/** Tolvan's number in the spellings the review found passing the search-value check, and those already refused. */
const NUMBER_SPELLINGS = [
  '191212121212', '19121212-1212', '19121212+1212', '19121212 1212', '19121212.1212', '1912.1212.1212', '121212-1212', '121212+1212',
  '1212121212', '19121212\u20131212', '19121212--1212', '19121212_1212', '\uff11\uff19\uff11\uff12\uff11\uff12\uff11\uff12\uff11\uff12\uff11\uff12', 'a|19121212.1212',
];
/** Product codes (NPL ids) of 14 digits that start with a date: nobody's number, searchable, and shown back in the link as sent. */
const CODES = ['19870101000077', '20120301100277'];

/** Whether a parameter name is plain enough for a refusal to show it back. */
const plain = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_\-:.]*$/.test(name);
const linksOf = (res: LightMyRequestResponse): string[] => (JSON.parse(res.body) as SearchBundle).link?.map((l) => l.url) ?? [];
/** Over fhir-r4, every `n`th case by position (each route still met); over the embedded EHR every one. */
const takes = (variant: EhrVariant, n: number) => (i: number): boolean => variant !== 'fhir-r4' || i % n === 0;

overBothEhrs((variant) => {
  describe('issue 44 item 5: no search value that names a person reaches a link', () => {
    let t: AnyTestApp;
    let userWide: string;
    let ehrCalls: () => number;
    const call = (token: string, options: ReturnType<typeof fhirRequest>): Promise<LightMyRequestResponse> => t.call({ ...options, token, key: null });

    beforeAll(async () => {
      t = await startTestAppOn(variant, STEADY);
      userWide = used.token(await t.personToken(MARTA, { client_id: APP, scope: 'user/*.rs' }));
      ehrCalls = countEhrCalls(t.ehr);
    }, 60_000);
    afterAll(async () => {
      logs.push(...t.logLines);
      vi.restoreAllMocks();
      await t.close();
    });

    /** A 400 naming `name`, decided before the EHR is asked, holding no identity number. */
    async function expectRefused(route: FhirRouteCase, token: string, options: ReturnType<typeof fhirRequest>, name: string, label: string): Promise<void> {
      const before = ehrCalls();
      const res = await call(token, options);
      expectFhirAnswer(route, res, label, { allowed: [400] });
      if (plain(name)) expect([label, issueOf(res).diagnostics]).toEqual([label, expect.stringContaining(name)]);
      expect([label, ehrCalls() - before, identityNumbersIn(res.body, DEMO_PEOPLE)]).toEqual([label, 0, []]);
    }

    it('refuses an identity number in _id or a code however it is spelt, and links a product code as sent (item 5)', async () => {
      let checked = 0;
      for (const [i, route] of FHIR_SEARCH_ROUTES.filter((r) => r.type !== 'AuditEvent').entries()) {
        const names = ['_id', ...route.tokenParams.filter((p) => !(route.type === 'Patient' && p === 'identifier'))];
        for (const [k, value] of NUMBER_SPELLINGS.entries()) {
          for (const [n, name] of names.entries()) {
            if (!takes(variant, 4)(i + k + n)) continue;
            await expectRefused(route, userWide, fhirRequest(route, { params: [[name, value]] }), name, `${route.label} ${name}=${value}`);
            checked++;
          }
        }
        for (const [n, name] of names.entries()) {
          if (!takes(variant, 8)(i + n)) continue;
          for (const code of CODES) {
            const res = await call(userWide, fhirRequest(route, { params: [[name, code]] }));
            expectFhirAnswer(route, res, `${route.label} ${name}=${code}`, { allowed: [200] });
            expect(linksOf(res)[0]).toContain(`${name}=${code}`);
          }
        }
      }
      expect(checked).toBeGreaterThan(variant === 'fhir-r4' ? 150 : 600);
    });
  });
});

describe('the logs of every request above', () => {
  it('are one JSON line each and hold no token or identity number', () => {
    expect(logs.length).toBeGreaterThan(100);
    expect(malformedLogLines(logs)).toEqual([]);
    expect(used.foundIn(logs)).toEqual([]);
  });
});
