/**
 * A small world for the notification engine's domain tests: a fake EHR and registry, the real access
 * policy, release rules and use cases, the memory store, a channel that records what it is given and
 * answers as told, and a clock the test moves. No HTTP, no network, no timer.
 */
import { createHash } from 'node:crypto';
import { MemorySubscriptionStore } from '../../../src/adapters/subscriptions/memory-subscription-store.js';
import { PatientAccessPolicy } from '../../../src/domain/access/patient-access.js';
import { FindChanges } from '../../../src/domain/notifications/find-changes.js';
import { FollowFeeds, type FeedSources, type GrantEvents } from '../../../src/domain/notifications/follow-feeds.js';
import { ManageSubscriptions } from '../../../src/domain/notifications/manage-subscriptions.js';
import { ENDING_CLAIM_MS } from '../../../src/domain/notifications/notification-deps.js';
import type { NotificationDeps, ResourceWriter } from '../../../src/domain/notifications/notification-deps.js';
import { RightToRead } from '../../../src/domain/notifications/right-to-read.js';
import { SendNotifications } from '../../../src/domain/notifications/send-notifications.js';
import type { StoredSubscription, Subscriber } from '../../../src/domain/notifications/subscription.js';
import { TOPIC_NAMES, type TopicName } from '../../../src/domain/notifications/topics.js';
import type { JournalNoteRecord } from '../../../src/domain/records/index.js';
import type { ReleasePolicy } from '../../../src/domain/release/release-policy.js';
import { compactToEpochMs } from '../../../src/domain/time/local-time.js';
import { ReadPatientData } from '../../../src/domain/use-cases/read-patient-data.js';
import type { ReadName } from '../../../src/domain/operations/table.js';
import { withReadsOff } from '../../../src/domain/read-availability/reads-off.js';
import type { AppGrants, HeldGrant } from '../../../src/ports/app-grants.port.js';
import type { AuditFeed, FedRecord } from '../../../src/ports/audit-feed.port.js';
import type { Delivery, DeliveryOutcome, NotificationChannel } from '../../../src/ports/notification-channel.port.js';
import type { GrantEvent } from '../../../src/ports/proxy-grants.port.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';
import { patientRecord } from '../../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../../fakes/fake-ehr.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';

export const ZONE = 'Europe/Stockholm';
export const CHILD = '201701012393';
export const GUARDIAN = '198112189876';
export const STRANGER = '194608632396';
export const at = (compact: string): number => compactToEpochMs(compact, ZONE);
export const POLL_MS = 10_000;
export const RETRY_MS = 60 * 60_000;

/** One journal note extract, signed at `signed` (unsigned when undefined). */
export function note(id: string, created: string, signed?: string, text = 'Anteckning'): JournalNoteRecord['JournalNoteEHRExtract'][number] {
  return {
    ehr_id: { extension: id, root: '1.2.752.99999.1' }, time_created: { value: created }, CareProviders: { CareProvider: [] }, Units: { Unit: [] },
    Note: { ...(signed === undefined ? {} : { NoteSignDateTime: { value: signed } }), NoteSecrecyLevels: { SecrecyLevel: [] }, Records: { Record: [{ Value: [{ $self: text }] }] } },
  } as unknown as JournalNoteRecord['JournalNoteEHRExtract'][number];
}

export const notes = (...extracts: JournalNoteRecord['JournalNoteEHRExtract']): JournalNoteRecord[] => [{ XSDVersion: { version: 3.1 }, JournalNoteEHRExtract: extracts } as JournalNoteRecord];

/** Each extract a resource of the topic's type, by its ehr_id: what the FHIR forms do for the test's purpose, without their detail. */
export const writeAsResources: ResourceWriter = (read, records) => {
  const type = read === 'getJournalNotes' ? 'Composition' : read === 'getLabResults' ? 'DiagnosticReport' : 'Appointment';
  return records.flatMap((item) => Object.values(item as object).filter(Array.isArray).flat()
    .filter((x: { ehr_id?: { extension: string }; ContactId?: string }) => x?.ehr_id !== undefined || x?.ContactId !== undefined)
    .map((x: { ehr_id?: { extension: string }; ContactId?: string }): FhirResource => ({ resourceType: type, id: x.ehr_id?.extension ?? x.ContactId ?? '', body: JSON.stringify(x) })));
};

export class RecordingChannel implements NotificationChannel {
  readonly sent: (Delivery & { bundle: Record<string, unknown> })[] = [];
  /** What each endpoint answers; a delivered 200 unless told. A function may never resolve (a receiver that hangs). */
  answer: (d: Delivery) => Promise<DeliveryOutcome> = async () => ({ kind: 'delivered', status: 200 });

  async send(d: Delivery): Promise<DeliveryOutcome> {
    this.sent.push({ ...d, bundle: JSON.parse(d.body) as Record<string, unknown> });
    return this.answer(d);
  }

  async close(): Promise<void> {}

  /** The Parameters of each notification sent to `endpoint`: its type and event numbers. */
  kinds(endpoint?: string): string[] {
    return this.sent.filter((d) => endpoint === undefined || d.endpoint === endpoint).map((d) => {
      const status = ((d.bundle.entry as { resource: { parameter: { name: string; valueCode?: string; part?: { name: string; valueString?: string }[] }[] } }[])[0])?.resource;
      const type = status?.parameter.find((p) => p.name === 'type')?.valueCode ?? '?';
      const numbers = status?.parameter.filter((p) => p.name === 'notification-event').map((p) => p.part?.find((q) => q.name === 'event-number')?.valueString);
      return numbers === undefined || numbers.length === 0 ? type : `${type} ${numbers.join(',')}`;
    });
  }
}

export class ListAuditFeed implements AuditFeed {
  readonly records: FedRecord[] = [];
  /** Pages of at most `limit` records, as the trails answer. */
  async after(position: string | undefined, limit: number): Promise<{ records: FedRecord[]; position: string }> {
    const from = position === undefined ? 0 : Number(position);
    const records = this.records.slice(from, from + limit);
    return { records, position: String(from + records.length) };
  }
}

/** The grant store's ordered events, as a list: each event's `seq` is its place in it, from 1. */
export class ListGrantEvents implements GrantEvents {
  readonly list: GrantEvent[] = [];
  push(...events: Omit<GrantEvent, 'seq'>[]): void {
    for (const e of events) this.list.push({ ...e, seq: this.list.length + 1 });
  }
  async events(afterSeq: number, limit: number): Promise<GrantEvent[]> {
    return this.list.filter((e) => (e.seq ?? 0) > afterSeq).slice(0, limit);
  }
}

/** The app's grants: each holds `scopes` until revoked, or until a new consent narrowed it (`narrowed`: no scope of the topic's left). */
export class SwitchableGrants implements AppGrants {
  revoked = new Set<string>();
  narrowed = new Set<string>();
  async scopesHeld(held: HeldGrant): Promise<ReadonlySet<string> | undefined> {
    if (this.revoked.has(held.grantId)) return undefined;
    return new Set(this.narrowed.has(held.grantId) ? ['openid'] : ['openid', 'user/*.rs', 'user/Subscription.write']);
  }
}

/** The FHIR door's test, as a stand-in: the topic's scopes are the wide ones alone (src/http/fhir/subscription-caller.ts has the real one). */
export const wideScopesReach = (_s: unknown, scopes: ReadonlySet<string>): boolean => scopes.has('user/*.rs') && scopes.has('user/Subscription.write');

let ids = 0;
const newId = (): string => `00000000-0000-4000-8000-${String(ids++).padStart(12, '0')}`;

/** The region's rules of these tests: a journal note is released a day after it was signed. */
export const SIGNING_DELAY = { signingDelay: { days: 1 } } as ReleasePolicy;

export function world(rules: ReleasePolicy | 'no release policy' = SIGNING_DELAY, readsOff: readonly ReadName[] = []) {
  const policy = rules === 'no release policy' ? undefined : rules;
  const clock = new FixedClock(at('20261126100000'));
  const ehr = new FakeEhr()
    .withPatient(CHILD, { getPatient: [patientRecord(CHILD)], getJournalNotes: notes(note('n-old', '20261001090000', '20261001100000')) })
    .withPatient(GUARDIAN, { getPatient: [patientRecord(GUARDIAN)] })
    .withPatient(STRANGER, { getPatient: [patientRecord(STRANGER)] });
  const registry = new FakeRegistry().grant(GUARDIAN, { patient: CHILD, type: 'guardian', validFrom: '20170101' });
  // READS_OFF as the composition root wires it: every reader of the EHR sees the reads turned off.
  // A test may turn a read on again (`off.delete`): each poll's view of the EHR asks anew.
  const off = new Set(readsOff);
  const served = withReadsOff(ehr, off);
  const access = new PatientAccessPolicy(served, registry, clock, ZONE);
  const release = { policy, clock };
  const store = new MemorySubscriptionStore();
  const audit = new MemoryAuditTrail();
  const channel = new RecordingChannel();
  const grants = new SwitchableGrants();
  const deps: NotificationDeps = {
    store, right: new RightToRead(access, { grants, scopesReach: wideScopesReach }, { ...release, zone: ZONE }), reader: new ReadPatientData(ZONE, release), write: writeAsResources, shows: () => () => true,
    audit, clock, newId, digest: (text) => createHash('sha256').update(text).digest('base64url'),
  };
  const manage = new ManageSubscriptions(deps, { topics: new Set<TopicName>(TOPIC_NAMES), pollMs: POLL_MS, newSubscriptionId: () => newId().replaceAll('-', '') });
  const find = new FindChanges({ ...deps, ehr: served, budget: { reserve: async () => 0, close: async () => undefined } });
  const send = new SendNotifications({ ...deps, channel }, { retryMs: RETRY_MS, fhirBase: () => 'http://svc/fhir', maxInFlight: 10, leaseMs: 60_000, owner: 'me' });
  const auditFeed = new ListAuditFeed();
  const grantEvents = new ListGrantEvents();
  const sources: FeedSources = { audit: auditFeed, grants: grantEvents, auditEventId: (timeMs, requestId) => `${timeMs.toString(36)}-${requestId.slice(0, 8)}` };
  const feeds = new FollowFeeds(store, sources, clock);
  const pollSettings = { pollMs: POLL_MS, leaseMs: 60_000, owner: 'me', wait: async () => undefined };
  /** One poll turn after the poll interval, then a delivery turn, waited for. */
  const tick = async (): Promise<void> => {
    clock.advance(POLL_MS);
    while (await find.turn(pollSettings));
    await feeds.turn();
    await send.turn();
    await send.settled();
  };
  /** One poll of the due patients, with no delivery turn (a poll that comes while a notification is being sent). */
  const poll = async (): Promise<void> => {
    while (await find.turn(pollSettings));
  };
  return { clock, ehr, registry, store, audit, channel, grants, manage, find, send, feeds, auditFeed, grantEvents, tick, poll, deps, off };
}

export function subscriber(personId: string, grantId = 'grant-1'): Subscriber {
  return { issuer: 'https://issuer.example', subject: `sub-${personId}`, personId, clientId: 'patient-app', grantId };
}

export const channelOf = (endpoint = 'https://hooks.example/a') => ({ endpoint, headers: ['Authorization: Bearer app-secret'], payload: 'id-only' as const, timeoutSeconds: 10 });

/** CHILD's journal gains a note signed at 10:05 on the world's first day, beside the one it had. */
export function signNewNote(w: Pick<ReturnType<typeof world>, 'ehr'>): void {
  w.ehr.withPatient(CHILD, { ...w.ehr.patients.get(CHILD), getJournalNotes: notes(note('n-old', '20261001090000', '20261001100000'), note('n-new', '20261126100500', '20261126100500')) });
}

/** GUARDIAN's journal-note subscription to CHILD, shaken hands, with the new note numbered as event 1 and not yet sent. */
export async function guardianWithEventWaiting(w: ReturnType<typeof world>): Promise<StoredSubscription> {
  const s = await w.manage.create(subscriber(GUARDIAN), { topic: 'journal-note', patient: CHILD, channel: channelOf() }, async () => undefined);
  await w.tick();
  signNewNote(w);
  w.clock.advance(60_000);
  await w.poll();
  return s;
}

/** Another caller (`claim`) claims the end of subscription `id` now, for the right lost, and holds it ENDING_CLAIM_MS; its time. */
export async function claimEnd(w: Pick<ReturnType<typeof world>, 'store' | 'clock'>, id: string, claim: string): Promise<number> {
  const atMs = w.clock.now();
  await w.store.update(id, (current) => ({ subscription: { ...current, ending: { claim, untilMs: atMs + ENDING_CLAIM_MS, reason: 'right-lost', atMs } } }));
  return atMs;
}

