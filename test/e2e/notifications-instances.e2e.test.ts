/**
 * Issue 54: two instances of the service on one database, as a region runs them (docs/notifications.md#where-it-is-kept).
 * Both poll the legacy EHR (the simulator over HTTP, counting every request), subscriptions are made
 * through either, and each change is delivered once; the EHR reads of polling from both together stay
 * within SUBSCRIPTION_EHR_READS_PER_SECOND. Then a restart of both loses and repeats no event.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoData } from '../../src/dev/demo-data/generate.js';
import { startEhrSimulator, type EhrSimulator } from '../../src/dev/ehr-simulator/index.js';
import { addLateLabReport } from '../../src/dev/notifications-demo/late-lab-report.js';
import { readNotification } from '../../src/dev/notifications-demo/receiver.js';
import { KeyedFhirIds } from '../../src/adapters/fhir-ids/keyed-fhir-ids.js';
import { createLogger } from '../../src/http/logging.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import { adminPool, databaseAvailable, databaseUrl } from '../support/database.js';
import { subscriptionBody } from '../support/notification-service.js';
import { receiver, status, type Receiver } from '../support/notification-receivers.js';
import { pollUntil } from '../support/poll.js';
import { TestIssuer } from '../support/test-issuer.js';

const available = await databaseAvailable();
const ZONE = 'Europe/Stockholm';
const KEY = 'instances-notifications-key-0123456789';
const ID_SECRET = 'a-shared-fhir-id-secret-of-this-test-0123456789';
const BUDGET = 4;
/** Four demo people, each following their own lab results: a poll of each costs two EHR reads (the patient, the lab results). */
const PEOPLE = ['191212121212', '198112189876', '194608632396', '200404122384'];
const LAB_READS = /\/patients\/\d{12}\/(patient|labresults)\b/;

interface Instance { runtime: Runtime; api: string }

describe.skipIf(!available)('two instances on one database (issue 54)', () => {
  let dir: string;
  let db: string;
  let sim: EhrSimulator;
  let issuer: TestIssuer;
  let sink: Receiver;
  const reads: number[] = [];
  let instances: Instance[] = [];

  async function start(): Promise<Instance> {
    const config = loadConfig({
      PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, `data-${instances.length}`), DATABASE_URL: db, EHR_ADAPTER: 'xml-http', EHR_BASE_URL: sim.url,
      AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl, SUBSCRIPTION_KEYS: `test:${KEY}`, RELEASE_POLICY_FILE: 'none', FHIR_ID_SECRET: ID_SECRET,
      SUBSCRIPTION_POLL_SECONDS: '1', SUBSCRIPTION_EHR_READS_PER_SECOND: String(BUDGET), SUBSCRIPTION_ALLOW_LOOPBACK: 'true', SUBSCRIPTION_ENDPOINTS: 'http://127.0.0.1/',
      METRICS_PORT: '0', LOG_LEVEL: 'silent',
    });
    const runtime = await compose(config, createLogger('silent'));
    const api = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
    runtime.listening(api);
    const instance = { runtime, api };
    instances.push(instance);
    return instance;
  }

  const tokenOf = (person: string): Promise<string> => issuer.sign({
    sub: `sub-${person}`, patient: person, client_id: 'a-region-app',
    scope: 'patient/Subscription.cruds patient/DiagnosticReport.rs patient/Patient.rs',
  });

  const eventsAt = (url: string): number[] => sink.received.filter((r) => r.url === url).map((r) => readNotification(r.body))
    .filter((n) => n.type === 'event-notification').flatMap((n) => n.events.map((e) => Number(e.number)));

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pdas-notif-instances-'));
    const name = `pdas_notif_${process.pid}_${Date.now() % 1_000_000}`;
    const admin = adminPool();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(databaseUrl());
    url.pathname = `/${name}`;
    db = url.toString();
    await generateDemoData(path.join(dir, 'ehr'), { now: Date.now(), zone: ZONE });
    sim = await startEhrSimulator({ dataDir: path.join(dir, 'ehr'), stateFile: path.join(dir, 'sim-state.json'), zone: ZONE, onRequest: (req) => {
      if (LAB_READS.test(req.url ?? '')) reads.push(Date.now());
    } });
    issuer = await TestIssuer.start();
    sink = await receiver(status(200));
    await start();
    await start();
  }, 120_000);

  afterAll(async () => {
    for (const i of instances) await i.runtime.close();
    await sink?.close();
    await issuer?.close();
    await sim?.close();
    if (db !== undefined) {
      const admin = adminPool();
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(db).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('subscriptions made through either are each told of a change once, and polling by both keeps the EHR budget', async () => {
    const ids = new KeyedFhirIds(Buffer.from(ID_SECRET));
    for (const [n, person] of PEOPLE.entries()) {
      const on = instances[n % 2] as Instance;
      const body = subscriptionBody(on.api, 'lab-result', 'DiagnosticReport', ids.patientId(person), `${sink.url}/${person}`);
      const res = await fetch(`${on.api}/fhir/Subscription`, {
        method: 'POST', body: JSON.stringify(body), headers: { authorization: `Bearer ${await tokenOf(person)}`, 'content-type': 'application/fhir+json' },
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    await pollUntil(async () => sink.received.length, (n) => n >= PEOPLE.length, 15_000);
    for (const person of PEOPLE.slice(0, 2)) await addLateLabReport(path.join(dir, 'ehr'), person, Date.now(), ZONE);
    await pollUntil(async () => PEOPLE.slice(0, 2).map((p) => eventsAt(`/${p}`).length), (n) => n.every((x) => x >= 1), 20_000);
    // Polling alone from here: every read the simulator counts is a poll's. A delivery reads its records again,
    // outside the budget (docs/notifications.md#the-ehr-budget), so the window opens after both were told.
    const from = Date.now();
    const counted = reads.length;
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const seconds = (Date.now() - from) / 1000;
    // Each change once, numbered 1, whichever instance polled and delivered it; the others nothing.
    expect(PEOPLE.map((p) => eventsAt(`/${p}`))).toEqual([[1], [1], [], []]);
    // Demand is eight reads a second; the budget four, across both (plus one second's burst and one poll's reads).
    const polled = reads.length - counted;
    expect(polled).toBeGreaterThan(0);
    expect(polled, `${polled} EHR reads in ${seconds.toFixed(1)} s`).toBeLessThanOrEqual(Math.ceil(BUDGET * seconds) + BUDGET + 2);
  }, 90_000);

  it('a restart of both loses and repeats no event: a change made while they were down is told once, numbered on', async () => {
    for (const i of instances) await i.runtime.close();
    instances = [];
    const before = eventsAt(`/${PEOPLE[0]}`);
    await addLateLabReport(path.join(dir, 'ehr'), PEOPLE[0] as string, Date.now(), ZONE);
    await start();
    await start();
    await pollUntil(async () => eventsAt(`/${PEOPLE[0]}`), (e) => e.length > before.length, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 4000));
    expect(eventsAt(`/${PEOPLE[0]}`)).toEqual([1, 2]);
    expect(eventsAt(`/${PEOPLE[1]}`)).toEqual([1]);
  }, 90_000);
});
