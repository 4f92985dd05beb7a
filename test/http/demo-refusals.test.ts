/**
 * Issue 38: in demo mode a 401 says which credential was missing and where the demo's credentials are
 * (the key's file in DATA_DIR, the demo issuer), never a key or secret itself
 * (docs/contract.md#demo-mode). Outside demo mode the messages are the vendor's, as
 * test/http/authentication.test.ts pins them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoService, type DemoService } from '../support/demo-service.js';

describe('issue 38: 401s in demo mode name the missing credential and where the demo\'s are', () => {
  let dir: string;
  let service: DemoService;
  let secrets: string[];
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${service.api}${url}`, { headers });
    return { status: res.status, challenge: res.headers.get('www-authenticate'), text: await res.text() };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-demo-refusals-'));
    service = await startDemoService({ DATA_DIR: dir });
    const clients = JSON.parse(await readFile(path.join(dir, 'demo-auth.json'), 'utf8')) as { clientSecrets: Record<string, string> };
    secrets = [service.key, ...Object.values(clients.clientSecrets)];
  });
  afterAll(async () => {
    await service.runtime.close();
    await rm(dir, { recursive: true, force: true });
  });

  const keyFile = () => path.join(dir, 'demo-subscription-key');

  it('no subscription key: the vendor\'s words, then that none was sent and the file the demo key is in', async () => {
    const res = await get('/patients/appointments/');
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ statusCode: 401, message: 'Access denied due to missing or invalid subscription key. Demo mode: no subscription key '
      + `was sent; the demo key is in ${keyFile()}: send it in the Ocp-Apim-Subscription-Key header.` });
    for (const secret of secrets) expect(res.text).not.toContain(secret);
  });

  it('a wrong key, in shape 2 too: that the key sent is not the demo key', async () => {
    const res = await get('/patients/contacts/', { 'ocp-apim-subscription-key': 'not-the-demo-key' });
    expect(res.status).toBe(401);
    expect((JSON.parse(res.text) as { error: string }).error).toBe('Access denied due to missing or invalid subscription key. Demo mode: '
      + `the key sent is not the demo key, which is in ${keyFile()}: send it in the Ocp-Apim-Subscription-Key header.`);
  });

  // The demo key sent twice (a header and the parameter differing, a repeated parameter, a repeated header) was
  // refused as "not the demo key", which a person who sent the demo key could not act on.
  it('more than one key: that one key is to be sent, once, whichever of them is the demo key', async () => {
    const several = `Access denied due to missing or invalid subscription key. Demo mode: more than one subscription key was sent; send the demo key, `
      + `which is in ${keyFile()}, once, in the Ocp-Apim-Subscription-Key header.`;
    const key = encodeURIComponent(service.key);
    const sent = [
      await get(`/patients/appointments/?subscription-key=${key}&subscription-key=${key}`),
      await get(`/patients/appointments/?subscription-key=other-key-0123456789`, { 'ocp-apim-subscription-key': service.key }),
      await (async () => {
        const res = await fetch(`${service.api}/patients/appointments/`, { headers: [['ocp-apim-subscription-key', service.key], ['ocp-apim-subscription-key', service.key]] });
        return { status: res.status, text: await res.text() };
      })(),
    ];
    expect(sent.map((res) => [res.status, (JSON.parse(res.text) as { message: string }).message])).toEqual([[401, several], [401, several], [401, several]]);
    for (const res of sent) for (const secret of secrets) expect(res.text).not.toContain(secret);
    // One key with a stray comma, a comma alone, an empty parameter beside the header: one key or none, not several (helper-134, F7).
    const notDemo = 'Access denied due to missing or invalid subscription key. Demo mode: the key sent is not the demo key, which is in '
      + `${keyFile()}: send it in the Ocp-Apim-Subscription-Key header.`;
    // An empty one was "not the demo key", beside the demo key in the header too (hostile reviews helper-137, F3 and helper-141, F2).
    const empty = 'Access denied due to missing or invalid subscription key. Demo mode: an empty subscription key was sent; leave it out, '
      + `and send the demo key, which is in ${keyFile()}, once, in the Ocp-Apim-Subscription-Key header.`;
    const odd = [
      await get('/patients/appointments/', { 'ocp-apim-subscription-key': `${service.key},` }),
      await get('/patients/appointments/', { 'ocp-apim-subscription-key': ',' }),
      await get('/patients/appointments/', { 'ocp-apim-subscription-key': '' }),
      await get('/patients/appointments/?subscription-key='),
      await get('/patients/appointments/?subscription-key=', { 'ocp-apim-subscription-key': 'not-the-demo-key' }),
      await get('/patients/appointments/?subscription-key=', { 'ocp-apim-subscription-key': service.key }),
    ];
    expect(odd.map((res) => [res.status, (JSON.parse(res.text) as { message: string }).message]))
      .toEqual([[401, notDemo], [401, empty], [401, empty], [401, empty], [401, empty], [401, empty]]);
    for (const res of odd) for (const secret of secrets) expect(res.text).not.toContain(secret);
  });

  it('the key but no token: that no bearer token was sent, and the demo issuer that gives one', async () => {
    const issuer = /demo authorization server: (\S+)/.exec(service.runtime.notices.join('\n'))?.[1];
    for (const url of ['/patients/appointments/', '/fhir/Patient']) {
      const res = await get(url, { 'ocp-apim-subscription-key': service.key });
      expect(res.status).toBe(401);
      expect(res.challenge).toBe('Bearer');
      expect(res.text).toContain(`Invalid access token. Demo mode: no bearer token was sent; get one from the demo authorization server at ${issuer} `
        + `(its clients and secrets are in ${path.join(dir, 'demo-auth.json')}) and send it as Authorization: Bearer <token>.`);
      for (const secret of secrets) expect(res.text).not.toContain(secret);
    }
  });

  it('a token that does not verify: the plain message, the challenge says why', async () => {
    const res = await get('/patients/appointments/', { 'ocp-apim-subscription-key': service.key, authorization: 'Bearer abc.def.ghi' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ statusCode: 401, message: 'Invalid access token.' });
  });
});
