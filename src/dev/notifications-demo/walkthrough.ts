/**
 * `npm run notifications` (docs/notifications.md#trying-it): against a running demo, a loopback
 * receiver, a subscription made as a SMART app would make it (a demo person's token through the demo
 * sign-in), a change in the demo EHR, and each notification printed as it arrives; then the changed
 * resource read with the same token, and the subscription deleted.
 */
import { demoPersonToken } from '../demo-issuer/demo-token.js';
import { addLateLabReport } from './late-lab-report.js';
import { Receiver, type Received } from './receiver.js';

export type DemoTopic = 'lab-result' | 'access';

export interface WalkOptions {
  api: string;
  issuer: string;
  /** DATA_DIR of the running demo: its EHR's documents are in `demo-ehr`. */
  ehrDir: string;
  person: string;
  topic: DemoTopic;
  /** SUBSCRIPTION_POLL_SECONDS of the running demo. */
  pollSeconds: number;
  zone: string;
  say: (line: string) => void;
}

/** Someone the demo registry lets read Tolvan's record (a power of attorney), for the `access` topic. */
const MARTA = '198112189876';

async function fhir(api: string, token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${api}/fhir/${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json', ...(init.body === undefined ? {} : { 'content-type': 'application/fhir+json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? {} : JSON.parse(text) as Record<string, unknown> };
}

const BACKPORT = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';

function subscription(api: string, topic: DemoTopic, patientId: string, endpoint: string): Record<string, unknown> {
  const type = topic === 'access' ? 'AuditEvent' : 'DiagnosticReport';
  return {
    resourceType: 'Subscription', meta: { profile: [`${BACKPORT}/backport-subscription`] }, status: 'requested',
    reason: 'npm run notifications', criteria: `${api}/fhir/SubscriptionTopic/${topic}`,
    _criteria: { extension: [{ url: `${BACKPORT}/backport-filter-criteria`, valueString: `${type}?patient=${patientId}` }] },
    channel: {
      type: 'rest-hook', endpoint, payload: 'application/fhir+json',
      _payload: { extension: [{ url: `${BACKPORT}/backport-payload-content`, valueCode: 'id-only' }] },
    },
  };
}

const describe = (r: Received): string => `${r.type} (status ${r.status}, events since start ${r.eventsSinceStart})`
  + r.events.map((e) => `\n    event ${e.number}${e.focus === undefined ? '' : `: ${e.focus}`}`).join('');

/** Walks the demo; resolves true once an event notification arrived and its focus was read. */
export async function walkthrough(o: WalkOptions): Promise<boolean> {
  const receiver = await Receiver.start((r) => o.say(`received ${describe(r)}`));
  o.say(`receiver listening at ${receiver.url}`);
  try {
    const scopes = ['patient/Subscription.cruds', 'patient/Patient.rs', o.topic === 'access' ? 'patient/AuditEvent.rs' : 'patient/DiagnosticReport.rs', 'patient/Observation.rs'];
    const token = await demoPersonToken({ issuer: o.issuer, person: o.person, scopes: ['launch/patient', ...scopes], aud: `${o.api}/fhir` });
    o.say(`signed in as ${o.person} through the demo sign-in (scopes ${scopes.join(' ')})`);
    const me = await fhir(o.api, token, 'Patient');
    const patientId = ((me.json.entry as { resource: { id: string } }[] | undefined)?.[0])?.resource.id;
    if (patientId === undefined) throw new Error(`GET /fhir/Patient answered ${me.status}`);
    const made = await fhir(o.api, token, 'Subscription', { method: 'POST', body: subscription(o.api, o.topic, patientId, receiver.url) });
    if (made.status !== 201) throw new Error(`POST /fhir/Subscription answered ${made.status}: ${JSON.stringify(made.json.issue ?? made.json)}`);
    const id = String(made.json.id);
    o.say(`subscribed to ${o.topic}: Subscription/${id}`);
    if (await receiver.next('handshake', 10_000) === undefined) throw new Error('no handshake arrived within 10 s');
    if (o.topic === 'lab-result') {
      const added = await addLateLabReport(o.ehrDir, o.person, Date.now(), o.zone);
      o.say(`added a lab report to ${added.file} (${added.test}, attested 15 days ago: the demo's release policy shows a result 14 days after it was attested)`);
    } else {
      const marta = await demoPersonToken({ issuer: o.issuer, person: MARTA, scopes: ['user/Composition.rs'], aud: `${o.api}/fhir` });
      const read = await fhir(o.api, marta, `Composition?patient=${patientId}`);
      o.say(`Märta Ström (${MARTA}, power of attorney) read the journal notes: ${read.status}`);
    }
    const waitMs = (o.pollSeconds * 3 + 10) * 1000;
    o.say(`waiting up to ${Math.round(waitMs / 1000)} s for the change to be found and told (SUBSCRIPTION_POLL_SECONDS is ${o.pollSeconds})…`);
    const event = await receiver.next('event-notification', waitMs);
    if (event === undefined) throw new Error('no event notification arrived in time');
    const focus = event.events[0]?.focus;
    if (focus !== undefined) {
      const read = await fhir(o.api, token, focus.slice(focus.indexOf('/fhir/') + '/fhir/'.length));
      o.say(`read ${focus} with the same token: ${read.status} ${String(read.json.resourceType ?? '')}`);
    }
    const ended = await fhir(o.api, token, `Subscription/${id}`, { method: 'DELETE' });
    o.say(`deleted Subscription/${id}: ${ended.status}`);
    return true;
  } finally {
    await receiver.close();
  }
}
