/**
 * The demo service composed as `npm start` composes it, for the notification tests (issue 54): its own
 * DATA_DIR (the demo EHR's documents in `demo-ehr`, which a test changes as the EHR would), a poll of
 * one second, a clock a test can move forward (time keeps running: the engine's timers are real), and
 * the helpers a SMART app would use: a demo person's token, their Patient id, a Subscription.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/http/logging.js';
import { demoPersonToken } from '../../src/dev/demo-issuer/demo-token.js';
import { loadConfig } from '../../src/start/config.js';
import { compose, type Runtime } from '../../src/start/container.js';
import type { Clock } from '../../src/ports/clock.port.js';

/** The real clock, shifted forward by what a test asks (a signing delay passed, a grant ended). */
export class ShiftedClock implements Clock {
  private offset = 0;
  now(): number {
    return Date.now() + this.offset;
  }
  shift(ms: number): void {
    this.offset += ms;
  }
}

/** A FHIR answer as the tests read it, member by member (what each member holds is the test's to assert). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read by path in tests, each read asserted
export type FhirJson = Record<string, any>;

export interface NotificationService {
  runtime: Runtime;
  api: string;
  issuer: string;
  dataDir: string;
  ehrDir: string;
  clock: ShiftedClock;
  /** A demo person's token through the demo sign-in as a SMART app (`aud` the FHIR base), with these scopes, the picker picking `pick` (themself unless given). */
  token(person: string, scopes: readonly string[], pick?: string): Promise<string>;
  /** GET/POST/DELETE on the FHIR API with a token: status and parsed JSON. */
  fhir(token: string, pathAndQuery: string, init?: { method?: string; body?: unknown }): Promise<{ status: number; json: FhirJson }>;
  /** The person's own Patient id, as the FHIR API gives it. */
  patientId(person: string): Promise<string>;
  close(): Promise<void>;
}

const BACKPORT = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';

/** A backport Subscription of `topic` for `patientId` to `endpoint`. */
export function subscriptionBody(api: string, topic: string, type: string, patientId: string, endpoint: string, over: { payload?: string; heartbeat?: number; header?: string[] } = {}): Record<string, unknown> {
  return {
    resourceType: 'Subscription', status: 'requested', reason: 'a test', criteria: `${api}/fhir/SubscriptionTopic/${topic}`,
    _criteria: { extension: [{ url: `${BACKPORT}/backport-filter-criteria`, valueString: `${type}?patient=${patientId}` }] },
    channel: {
      type: 'rest-hook', endpoint, payload: 'application/fhir+json', ...(over.header === undefined ? {} : { header: over.header }),
      _payload: { extension: [{ url: `${BACKPORT}/backport-payload-content`, valueCode: over.payload ?? 'id-only' }] },
      ...(over.heartbeat === undefined ? {} : { extension: [{ url: `${BACKPORT}/backport-heartbeat-period`, valueUnsignedInt: over.heartbeat }] }),
    },
  };
}

/** Starts the demo service with `env` over a DATA_DIR of its own (or the one given, for a restart). */
export async function startNotificationService(env: Record<string, string> = {}, dataDir?: string): Promise<NotificationService> {
  const dir = dataDir ?? await mkdtemp(path.join(tmpdir(), 'pdas-notifications-'));
  const clock = new ShiftedClock();
  const config = loadConfig({ PORT: '0', DEMO_AUTH_PORT: '0', DATA_DIR: dir, SUBSCRIPTION_POLL_SECONDS: '1', ...env });
  const runtime = await compose(config, createLogger('silent'), clock);
  const api = await runtime.app.listen({ host: '127.0.0.1', port: 0 });
  runtime.listening(api);
  const issuer = /demo authorization server: (\S+)/.exec(runtime.notices.join('\n'))?.[1] ?? '';
  const fhir: NotificationService['fhir'] = async (token, pathAndQuery, init = {}) => {
    const res = await fetch(`${api}/fhir/${pathAndQuery}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json', ...(init.body === undefined ? {} : { 'content-type': 'application/fhir+json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { status: res.status, json: text === '' ? {} : JSON.parse(text) as FhirJson };
  };
  const token = (person: string, scopes: readonly string[], pick?: string) =>
    demoPersonToken({ issuer, person, scopes, aud: `${api}/fhir`, ...(pick === undefined ? {} : { pick }) });
  return {
    runtime, api, issuer, dataDir: dir, ehrDir: path.join(dir, 'demo-ehr'), clock, token, fhir,
    patientId: async (person) => {
      const answer = await fhir(await token(person, ['patient/Patient.rs']), 'Patient');
      const id = answer.json.entry?.[0]?.resource?.id as string | undefined;
      if (id === undefined) throw new Error(`no Patient for ${person}: ${answer.status}`);
      return id;
    },
    close: async () => {
      await runtime.close();
      if (dataDir === undefined) await rm(dir, { recursive: true, force: true });
    },
  };
}
