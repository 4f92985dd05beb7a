/**
 * Notifications (docs/notifications.md), put together when SUBSCRIPTIONS is on and the FHIR API
 * serves: the store (PostgreSQL with DATABASE_URL, shared by every instance; else a file in DATA_DIR),
 * the EHR budget, the feeds' sources, the rest-hook channel, the use cases, and the workers that run
 * them: a few poll loops paced by the budget, and every second a turn of the feeds and of delivery.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { NotificationMetrics } from '../adapters/metrics/notification-metrics.js';
import { RestHookChannel } from '../adapters/notification-channel/rest-hook-channel.js';
import type { PatientAccessPolicy } from '../domain/access/patient-access.js';
import { checkChannelHeaders } from '../domain/notifications/channel-headers.js';
import { FindChanges } from '../domain/notifications/find-changes.js';
import { FollowFeeds } from '../domain/notifications/follow-feeds.js';
import { ManageSubscriptions } from '../domain/notifications/manage-subscriptions.js';
import type { NotificationDeps, ResourceWriter } from '../domain/notifications/notification-deps.js';
import { RightToRead } from '../domain/notifications/right-to-read.js';
import { SendNotifications } from '../domain/notifications/send-notifications.js';
import { offeredTopics } from '../domain/notifications/topics.js';
import type { ReadName } from '../domain/operations/table.js';
import type { ReadPatientData, ReleaseSettings } from '../domain/use-cases/read-patient-data.js';
import { eventIdOf } from '../http/access-log/fhir-audit-event.js';
import type { FhirApi } from '../http/fhir/fhir-api.js';
import { asFhirContext } from '../http/fhir/patient-records.js';
import { WrittenForms } from '../http/fhir/written-forms.js';
import type { SubscriptionDependencies } from '../http/routes/dependencies.js';
import { scopesReachTopic, subscriberShows } from '../http/fhir/subscription-caller.js';
import type { AppGrants } from '../ports/app-grants.port.js';
import type { AuditFeed } from '../ports/audit-feed.port.js';
import type { AuditTrail } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';
import type { EhrRecords } from '../ports/ehr-records.port.js';
import type { PollBudget } from '../ports/poll-budget.port.js';
import type { GrantEvent } from '../ports/proxy-grants.port.js';
import type { SubscriptionStore } from '../ports/subscription-store.port.js';
import type { FhirForm } from '../reads/as-fhir.js';
import type { Config } from './config.js';
import { repeatUntilClosed } from './repeated-turns.js';
import type { Lifecycle } from './lifecycle.js';
import type { Selection } from './adapter-selection.js';
import { endpointRulesOf, type EndpointRulesOf } from './notification-endpoints.js';
import { openNotificationStores } from './notification-stores.js';
import type { Sharing } from './proxy-grants.js';
import type { SubscriptionSettings } from './subscription-settings.js';

/** How often the feeds and delivery take a turn. */
const TURN_MS = 1000;
/** Poll loops per instance: enough to keep the budget busy over a slow EHR, few enough to stay gentle. */
const POLL_LOOPS = 4;
const POLL_LEASE_MS = 120_000;
const DELIVERY_LEASE_MS = 90_000;
const MAX_IN_FLIGHT = 64;
const PRUNE_EVERY_MS = 3600_000;

export interface NotificationParts {
  config: Config;
  settings: SubscriptionSettings;
  fhir: FhirApi;
  ehr: EhrRecords;
  accessPolicy: PatientAccessPolicy;
  readPatientData: ReadPatientData;
  release: ReleaseSettings;
  audit: AuditTrail;
  auditFeed: AuditFeed;
  /** The grant store's events while sharing is on (the `proxy` topic). */
  grantEvents?: { events(afterSeq: number, limit: number): Promise<GrantEvent[]> };
  /** The sign-in's grants (the app's access not revoked): with the demo's or the service's own authorization server. */
  appGrants?: AppGrants;
  endpointRules: EndpointRulesOf;
  store: SubscriptionStore;
  budget: PollBudget;
  clock: Clock;
  logger: Logger;
  metrics: NotificationMetrics;
  life: Lifecycle;
}

/** The FHIR forms writing a read's records for one patient, each version written once (written-forms.ts). */
function resourceWriter(fhir: FhirApi, zone: string): ResourceWriter {
  const written = new WrittenForms();
  return (read, records, patient) => {
    const form = fhir.forms[read as ReadName] as FhirForm<ReadName> | undefined;
    // No topic's read writes a Patient (only the patient reads do, src/reads/as-fhir-patient.ts), whose label the mark is.
    const ctx = asFhirContext(fhir, zone, patient, false);
    return form === undefined ? [] : written.resources(read, form, records as Parameters<FhirForm<ReadName>['resources']>[0], ctx, patient);
  };
}

/** An AuditEvent's id as the FHIR API gives an access-log entry (eventIdOf). */
const auditEventIdOf = (fhir: FhirApi) => (timeMs: number, requestId: string, operation: string): string =>
  eventIdOf(fhir.ids, { timeInUnix: timeMs, requestId, operation });

/** Makes the engine and starts its workers; answers what the FHIR routes need. */
export function startNotifications(parts: NotificationParts): SubscriptionDependencies {
  const { settings, fhir, store, clock, logger, metrics, life } = parts;
  const owner = `${process.pid}-${randomUUID()}`;
  const deps: NotificationDeps = {
    store, clock, audit: parts.audit, reader: parts.readPatientData, write: resourceWriter(fhir, parts.config.ehrTimezone), shows: subscriberShows(fhir),
    right: new RightToRead(parts.accessPolicy, parts.appGrants === undefined ? undefined : { grants: parts.appGrants, scopesReach: scopesReachTopic(fhir) }, {
      ...parts.release, zone: parts.config.ehrTimezone,
    }),
    digest: (text) => createHash('sha256').update(text).digest('base64url'), newId: randomUUID,
  };
  const topics = offeredTopics(parts.grantEvents !== undefined);
  const manage = new ManageSubscriptions(deps, { topics, pollMs: settings.pollSeconds * 1000, newSubscriptionId: () => randomBytes(16).toString('hex') });
  const channel = new RestHookChannel({ allowLoopback: settings.allowLoopback });
  const send = new SendNotifications({ ...deps, channel }, {
    retryMs: settings.retryMinutes * 60_000, fhirBase: () => `${fhir.publicBaseUrl}/fhir`, maxInFlight: MAX_IN_FLIGHT, leaseMs: DELIVERY_LEASE_MS, owner,
    observe: (outcome) => metrics.deliveries.inc({ outcome }), onError: (err) => logger.warn({ err }, 'a subscription could not be served; tried again in a moment'),
  });
  const find = new FindChanges({ ...deps, ehr: parts.ehr, budget: parts.budget });
  const feeds = new FollowFeeds(store, { audit: parts.auditFeed, ...(parts.grantEvents ? { grants: parts.grantEvents } : {}), auditEventId: auditEventIdOf(fhir) }, clock);
  metrics.budget.set(settings.ehrReadsPerSecond);
  metrics.readFrom(async () => {
    const oldest = await store.oldestDuePoll(clock.now());
    return oldest === undefined ? 0 : Math.max(0, (clock.now() - oldest) / 1000);
  }, () => store.countByStatus(), () => feeds.lagSeconds());

  const closing = new AbortController();
  const onError = (what: string) => (err: unknown): void => logger.warn({ err }, `${what} failed; tried again in a moment`);
  repeatUntilClosed(TURN_MS, async () => {
    await feeds.turn();
    await send.turn();
  }, onError('notifications: the feeds and delivery'), life);
  repeatUntilClosed(PRUNE_EVERY_MS, async () => {
    const before = clock.now() - settings.eventDays * 86_400_000;
    await store.pruneEvents(before);
    await store.pruneEnded(before);
    await store.pruneFeed(before);
  }, onError('notifications: forgetting old events'), life);
  const pollSettings = {
    pollMs: settings.pollSeconds * 1000, leaseMs: POLL_LEASE_MS, owner, observeReads: (n: number) => metrics.ehrReads.inc(n),
    wait: (ms: number) => (ms <= 0 ? Promise.resolve() : sleep(ms, undefined, { signal: closing.signal }).catch(() => undefined)),
  };
  const loops = Array.from({ length: POLL_LOOPS }, async () => {
    while (!closing.signal.aborted) {
      const polled = await find.turn(pollSettings).catch((err: unknown) => {
        onError('notifications: a poll')(err);
        return false;
      });
      if (!polled) await sleep(TURN_MS, undefined, { signal: closing.signal }).catch(() => undefined);
    }
  });
  life.onClose(async () => {
    closing.abort();
    await Promise.all(loops);
    await send.settled();
    await channel.close();
  });
  return {
    manage,
    checkEndpoint: (endpoint, clientId) => parts.endpointRules(clientId).check(endpoint),
    headerProblem: (lines) => {
      const verdict = checkChannelHeaders(lines);
      return verdict.allowed ? undefined : verdict.problem;
    },
    created: () => {
      // The handshake goes at once, not at the next turn.
      void send.turn().catch(onError('notifications: a handshake'));
    },
  };
}

/** What the composition root hands over: the rest is opened here. */
export interface OpenedParts {
  config: Config;
  settings: SubscriptionSettings;
  fhir: FhirApi;
  selection: Selection;
  sharing: Sharing | undefined;
  ehr: EhrRecords;
  accessPolicy: PatientAccessPolicy;
  readPatientData: ReadPatientData;
  audit: AuditTrail;
  metrics: NotificationMetrics;
}

/** Opens the stores the settings pick, the sign-in's grants and the endpoint rules, and starts the engine. */
export async function openNotifications(o: OpenedParts): Promise<SubscriptionDependencies> {
  const { config, settings, selection } = o;
  const { logger, life, clock } = selection;
  const stores = await openNotificationStores(config, settings.ehrReadsPerSecond, life, (msg) => logger.warn(msg));
  const { appGrants } = selection;
  logger.info({ store: stores.store.kind, pollSeconds: settings.pollSeconds, ehrReadsPerSecond: settings.ehrReadsPerSecond }, 'notifications (FHIR Subscriptions) on');
  return startNotifications({
    config, settings, fhir: o.fhir, ehr: o.ehr, accessPolicy: o.accessPolicy, readPatientData: o.readPatientData,
    release: { policy: config.releasePolicy, clock }, audit: o.audit, ...stores,
    ...(o.sharing === undefined ? {} : { grantEvents: o.sharing.store }), ...(appGrants === undefined ? {} : { appGrants }),
    endpointRules: endpointRulesOf(settings, selection.registeredClients ?? []), clock, logger, metrics: o.metrics, life,
  });
}
