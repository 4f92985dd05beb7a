/**
 * A JSON object that names a member twice is refused on both doors, 400 naming the member, and nothing
 * is stored. JSON leaves such an object's meaning open (RFC 8259 §4): JSON.parse keeps the last, a
 * reader of the first sees another request. Hostile review: `{"categories":["LabResult"], …,
 * "categories":["*"]}` was stored as a grant of everything, and a Consent with two `provision.class`
 * or two `period.end` was stored with the last; each 201 before the fix.
 */
import type { LightMyRequestResponse } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRepeatedMember } from '../../src/http/repeated-members.js';
import { DEFAULT_PROXY_SETTINGS } from '../support/proxy-wiring.js';
import { assertProperty } from '../support/seeds.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { ANTON, NOW, outcomeOf, pid, smartToken, TOLVAN } from './fhir/fhir-calls.js';
import { PATIENT_SCOPES, post as postSubscription, subscription } from './fhir/subscription-calls.js';

const GOSTA = '194608632396';
const RESOURCE_TYPES = 'http://hl7.org/fhir/resource-types';
const PERSONNUMMER = 'http://electronichealth.se/identifier/personnummer';

/** `json` with `"<name>": <value>` added at the end of the object the text `at` opens. */
const withRepeat = (json: string, at: string, member: string): string => {
  const i = json.indexOf(at);
  expect(i, `${at} in ${json}`).toBeGreaterThanOrEqual(0);
  const open = i + at.length;
  return `${json.slice(0, open)}${member},${json.slice(open)}`;
};

const consent = (classes: string[], period?: Record<string, string>): Record<string, unknown> => ({
  resourceType: 'Consent', status: 'proposed',
  patient: { reference: `Patient/${pid(TOLVAN)}` },
  provision: {
    type: 'permit', ...(period === undefined ? {} : { period }),
    actor: [{ role: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' }] }, reference: { identifier: { system: PERSONNUMMER, value: ANTON } } }],
    class: classes.map((code) => ({ system: RESOURCE_TYPES, code })),
  },
});

describe('firstRepeatedMember', () => {
  it('finds a name repeated in one object at any depth, decoded as JSON.parse decodes it, and only there', () => {
    const cases: [string, (string | number)[] | undefined][] = [
      ['{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}', undefined],
      ['[{"a":1},{"a":1}]', undefined],
      ['{"":1,"":2}', ['']],
      ['{"a":1,"b":2,"a":3}', ['a']],
      ['{"x":{"y":[0,{"z":1,"\\u007a":2}]}}', ['x', 'y', 1, 'z']],
      ['{"a":{"b":1},"a":{"b":1}}', ['a']],
      ['{"__proto__x":1,"__proto__x":1}', ['__proto__x']],
      ['"a"', undefined],
      ['{"a\\"":1,"a\\\\":2}', undefined],
    ];
    for (const [text, path] of cases) {
      expect(() => { JSON.parse(text); }, text).not.toThrow();
      expect([text, firstRepeatedMember(text)]).toEqual([text, path]);
    }
  });

  // A 16 KiB body holds 8,000 levels of arrays; jsonc-parser's visitor, tried first, overflowed the stack from 5,000.
  it('keeps its own stack: 100,000 levels deep is scanned, a repeat at the bottom found', () => {
    const deep = (inner: string, n = 100_000): string => `${'{"a":['.repeat(n)}${inner}${']}'.repeat(n)}`;
    expect(firstRepeatedMember(deep('1'))).toBeUndefined();
    const found = firstRepeatedMember(deep('{"b":1,"b":2}'));
    expect([found?.length, found?.slice(0, 2), found?.slice(-3)]).toEqual([200_001, ['a', 0], ['a', 0, 'b']]);
  });
});

/** A JSON value as a tree whose objects may repeat a name, written with each name spelt as it says. */
type Tree = { object: [name: string, spelt: 'plain' | 'escaped', value: Tree][] } | { array: Tree[] } | { leaf: unknown };

const written = (tree: Tree): string => {
  if ('object' in tree) {
    const spell = (name: string, how: string): string => how === 'plain' ? JSON.stringify(name)
      : `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
    return `{${tree.object.map(([name, how, value]) => `${spell(name, how)}:${written(value)}`).join(',')}}`;
  }
  return 'array' in tree ? `[${tree.array.map(written).join(', ')}]` : JSON.stringify(tree.leaf);
};

/** The oracle: the first repeat in the order the text shows it, by walking the tree. */
const firstRepeatIn = (tree: Tree, path: (string | number)[] = []): (string | number)[] | undefined => {
  if ('leaf' in tree) return undefined;
  if ('array' in tree) {
    for (const [i, item] of tree.array.entries()) {
      const found = firstRepeatIn(item, [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [name, , value] of tree.object) {
    if (seen.has(name)) return [...path, name];
    seen.add(name);
    const found = firstRepeatIn(value, [...path, name]);
    if (found !== undefined) return found;
  }
  return undefined;
};

const trees = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.record({ leaf: fc.oneof(fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', '{', ']', ':', 'é', '\u2028') }), fc.integer(), fc.constant(null)) }),
    fc.record({ array: fc.array(tie('tree'), { maxLength: 4 }) }),
    fc.record({ object: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'a"', 'a\\', '', 'é,'), fc.constantFrom('plain' as const, 'escaped' as const), tie('tree')), { maxLength: 4 }) })),
}));

describe('firstRepeatedMember, as a property', () => {
  it('finds exactly the first repeat the text shows, whatever the nesting, spelling and string contents', async () => {
    await assertProperty(fc.property(trees.tree, (tree) => {
      const text = written(tree);
      JSON.parse(text);
      expect(firstRepeatedMember(text)).toEqual(firstRepeatIn(tree));
    }), { seeds: [20_261_128, 5806, 70], numRuns: 3000 });
  });
});

describe('a member named twice in a JSON body', () => {
  let t: TestApp;
  let fhirToken: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, proxies: DEFAULT_PROXY_SETTINGS, subscriptions: true });
    fhirToken = await smartToken(t, TOLVAN, `patient/Consent.cud patient/Consent.rs ${PATIENT_SCOPES}`);
  }, 60_000);
  afterAll(async () => t.close());

  const cos = async (method: 'POST' | 'PUT', url: string, payload: string): Promise<LightMyRequestResponse> =>
    t.call({ method, url, token: await t.personToken(TOLVAN), payload, headers: { 'content-type': 'application/json' } });
  const fhir = (url: string, payload: string): Promise<LightMyRequestResponse> =>
    t.call({ method: 'POST', url, key: null, token: fhirToken, payload, headers: { 'content-type': 'application/fhir+json' } });
  const grantsOfTolvan = async (): Promise<unknown[]> => {
    const res = await t.call({ method: 'GET', url: '/patients/proxies/', token: await t.personToken(TOLVAN) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json<{ grants: unknown[] }>().grants);
  };

  it('COS: a grant whose categories come twice is 400 naming them, and no grant is stored', async () => {
    const before = await grantsOfTolvan();
    const body = `{"grantee":"${GOSTA}","categories":["LabResult"],"categories":["*"]}`;
    const res = await cos('POST', '/patients/proxies/', body);
    expect([res.statusCode, res.json()]).toEqual([400, { statusCode: 400, message: 'Body member categories is given twice: send each member once.' }]);
    // The same name spelt with an escape is the same name to JSON.parse.
    const escaped = await cos('POST', '/patients/proxies/', `{"grantee":"${GOSTA}","categories":["LabResult"],"\\u0063ategories":["*"]}`);
    expect([escaped.statusCode, escaped.json()]).toEqual([400, { statusCode: 400, message: 'Body member categories is given twice: send each member once.' }]);
    expect(await grantsOfTolvan()).toEqual(before);
    // Written once, the same grant is taken.
    expect((await cos('POST', '/patients/proxies/', `{"grantee":"${GOSTA}","categories":["LabResult"]}`)).statusCode).toBe(201);
  });

  it('COS: a change of appointment with two statuses is 400, before any EHR write', async () => {
    const res = await cos('PUT', '/patients/appointments/?id=1', '{"status":"arrived","status":"cancelled"}');
    expect([res.statusCode, res.json()]).toEqual([400, { statusCode: 400, message: 'Body member status is given twice: send each member once.' }]);
  });

  it('COS: a body nested as deep as 16 KiB allows is answered as before, by the schema', async () => {
    const res = await cos('POST', '/patients/proxies/', `{"categories":["LabResult"],"grantee":${'['.repeat(8_000)}${']'.repeat(8_000)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/^Body member grantee must be a Swedish personal identity or coordination number/);
  });

  it('never shows a repeated name that holds an identity number, nor a control character', async () => {
    const named = await cos('POST', '/patients/proxies/', `{"grantee":"${GOSTA}","categories":["LabResult"],"x191212121212":1,"x191212121212":2}`);
    expect([named.statusCode, named.json()]).toEqual([400, { statusCode: 400, message: 'Body member (a name holding an identity number) is given twice: send each member once.' }]);
    const control = await cos('POST', '/patients/proxies/', `{"grantee":"${GOSTA}","a\\nb":1,"a\\nb":2}`);
    expect(control.json<{ message: string }>().message).toBe('Body member a\\u000ab is given twice: send each member once.');
    // Hostile review (helper-71): a number split across the path's names and indices was shown, each name checked alone.
    for (const split of ['{"197305":{"242385":1,"242385":2}}', '{"19730524":[{"2385":1,"2385":2}]}', '{"1973052":[0,0,0,0,{"2385":1,"2385":2}]}']) {
      const res = await cos('POST', '/patients/proxies/', split);
      expect([split, res.json()]).toEqual([split, { statusCode: 400, message: 'Body member (a path that may hold an identity number) is given twice: send each member once.' }]);
    }
    // And a right-to-left override, which shows what follows reversed, is escaped like a control character.
    const override = await cos('POST', '/patients/proxies/', '{"a\\u202eb":1,"a\\u202eb":2}');
    expect(override.json<{ message: string }>().message).toBe('Body member a\\u202eb is given twice: send each member once.');
    // The Arabic letter mark is a bidirectional control too (hostile review helper-72: it was sent raw).
    const mark = await cos('POST', '/patients/proxies/', '{"a\\u061cb":1,"a\\u061cb":2}');
    expect(mark.json<{ message: string }>().message).toBe('Body member a\\u061cb is given twice: send each member once.');
  });

  it('shows a deep path by its end, at most 200 characters of it', async () => {
    const deep = `${'{"a":'.repeat(2_600)}{"b":1,"b":2}${'}'.repeat(2_600)}`;
    const { message } = (await cos('POST', '/patients/proxies/', deep)).json<{ message: string }>();
    expect(message).toMatch(/^Body member …a\.a\.[a.]*\.a\.b is given twice: send each member once\.$/);
    expect(message.length).toBeLessThan(260);
  });

  it('FHIR: a Consent with two provision.class, two period.end or two references in one actor is 400 naming the path', async () => {
    const json = JSON.stringify(consent(['Observation', 'DiagnosticReport'], { end: '2027-01-31T00:00:00+01:00' }));
    const before = await grantsOfTolvan();
    const cases: [string, string][] = [
      [withRepeat(json, '"provision":{', `"class":[{"system":"${RESOURCE_TYPES}","code":"Appointment"}]`), 'provision.class'],
      [withRepeat(json, '"period":{', '"end":"2099-01-01T00:00:00+01:00"'), 'provision.period.end'],
      [withRepeat(json, '"reference":{', `"identifier":{"system":"${PERSONNUMMER}","value":"${GOSTA}"}`), 'provision.actor[0].reference.identifier'],
      [withRepeat(json, '{', '"status":"active"'), 'status'],
    ];
    for (const [body, path] of cases) {
      expect(() => { JSON.parse(body); }).not.toThrow();
      const outcome = outcomeOf(await fhir('/fhir/Consent', body), 400);
      expect([path, outcome.code, outcome.diagnostics]).toEqual([path, 'invalid', `Body member ${path} is given twice: send each member once.`]);
    }
    expect(await grantsOfTolvan()).toEqual(before);
    // The same names in sibling objects are no repeat: written once, it is taken.
    expect((await fhir('/fhir/Consent', json)).statusCode).toBe(201);
  });

  it('FHIR: a number split across names is not shown either', async () => {
    const outcome = outcomeOf(await fhir('/fhir/Consent', '{"resourceType":"Consent","197305":{"242385":1,"242385":2}}'), 400);
    expect(outcome.diagnostics).toBe('Body member (a path that may hold an identity number) is given twice: send each member once.');
  });

  it('FHIR: a Subscription whose endpoint comes twice is 400, and none is made', async () => {
    const json = JSON.stringify(subscription());
    const body = withRepeat(json, '"channel":{', '"endpoint":"http://127.0.0.1:9/elsewhere"');
    const outcome = outcomeOf(await postSubscription(t, body, fhirToken), 400);
    expect(outcome.diagnostics).toBe('Body member channel.endpoint is given twice: send each member once.');
    const listed = await t.call({ method: 'GET', url: '/fhir/Subscription', key: null, token: fhirToken });
    expect(listed.json<{ total?: number; entry?: unknown[] }>().entry ?? []).toEqual([]);
  });
});
