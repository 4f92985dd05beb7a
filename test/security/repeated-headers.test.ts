/**
 * Hostile review: Authorization, Host or Content-Type sent twice is 400 in the door's shape, never
 * served as the first of them, which Node keeps while a gateway in front may read the last (a request
 * with Gösta's token, then Tolvan's, was served as Gösta). Sent raw: a client library would merge them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawConnection, type RawAnswer } from '../support/raw-http.js';
import { KEY, startTestApp, type TestApp } from '../support/test-app.js';

const TOLVAN = '191212121212';
const GOSTA = '194608632396';

describe('a header that names who calls or where, sent twice', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(() => t.close());

  async function sent(target: string, lines: string[]): Promise<RawAnswer> {
    const connection = await RawConnection.open(port);
    connection.write([`GET ${target} HTTP/1.1\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`]);
    const [answer] = await connection.answered(1);
    connection.destroy();
    if (answer === undefined) throw new Error(`no answer to ${target}`);
    return answer;
  }

  it('is 400 naming the header, on the COS door and the FHIR door, whichever token comes first', async () => {
    const [gosta, tolvan] = [await t.personToken(GOSTA), await t.personToken(TOLVAN)];
    const host = `Host: 127.0.0.1:${port}`;
    const twice = [`Authorization: Bearer ${gosta}`, `Authorization: Bearer ${tolvan}`];
    const cos = await sent('/patients/journalnotes/', [host, `Ocp-Apim-Subscription-Key: ${KEY}`, ...twice]);
    expect([cos.status, JSON.parse(cos.body)]).toEqual([400, { statusCode: 400, message: 'Header Authorization is sent more than once: send it once.' }]);
    const fhir = await sent('/fhir/Patient', [host, ...twice]);
    expect([fhir.status, fhir.headers['content-type']]).toEqual([400, 'application/fhir+json; charset=utf-8']);
    expect(JSON.parse(fhir.body)).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ diagnostics: 'Header Authorization is sent more than once: send it once.' }] });
    const hosts = await sent('/patients/journalnotes/', [host, host, `Ocp-Apim-Subscription-Key: ${KEY}`, `Authorization: Bearer ${tolvan}`]);
    expect([hosts.status, JSON.parse(hosts.body)]).toEqual([400, { statusCode: 400, message: 'Header Host is sent more than once: send it once.' }]);
    // Once each, the same request is served.
    expect((await sent('/patients/journalnotes/', [host, `Ocp-Apim-Subscription-Key: ${KEY}`, `Authorization: Bearer ${tolvan}`])).status).toBe(200);
  });

  // Hostile review (helper-85, F8): `patient` twice, which Node joins, was told "must be a Swedish personal
  // identity number", though each was one; the words now say what was wrong.
  it('says a patient header sent twice is sent more than once, whoever each names', async () => {
    const host = `Host: 127.0.0.1:${port}`;
    const marta = await t.personToken('198112189876');
    for (const [first, second] of [['201701012393', '201701012393'], ['201701012393', TOLVAN]]) {
      const res = await sent('/patients/journalnotes/', [host, `Ocp-Apim-Subscription-Key: ${KEY}`, `Authorization: Bearer ${marta}`, `patient: ${first}`, `Patient: ${second}`]);
      expect([res.status, JSON.parse(res.body)]).toEqual([400, { statusCode: 400, message: 'Header Patient is sent more than once: send it once.' }]);
    }
  });
});
