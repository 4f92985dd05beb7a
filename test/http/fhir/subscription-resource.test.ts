/**
 * docs/fhir-api.md#subscriptions: the backport's R4 Subscription read into a subscription request,
 * and a kept subscription written back as one. What is posted and read back is the same subscription;
 * what cannot be one is refused naming the element and saying what to send, never with a validator's
 * words or the value sent; no identity number is ever written.
 */
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../../src/domain/errors.js';
import type { StoredSubscription } from '../../../src/domain/notifications/subscription.js';
import { TOPIC_NAMES } from '../../../src/domain/notifications/topics.js';
import { postedSubscriptionOf, subscriptionResourceOf, type PostContext } from '../../../src/http/fhir/subscription-resource.js';
import { TEST_FHIR_IDS } from '../../support/test-app.js';

const BASE = 'https://api.test.example';
const SD = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
const TOLVAN = '191212121212';
const NOW = Date.parse('2026-11-21T08:00:00Z');
const CTX: PostContext = { publicBaseUrl: BASE, ids: TEST_FHIR_IDS, topics: new Set(TOPIC_NAMES), nowMs: NOW };
const PID = TEST_FHIR_IDS.patientId(TOLVAN);

type Json = Record<string, unknown>;

/** A Subscription as an app posts it, every element this service reads set. */
function posted(over: Json = {}, channel: Json = {}): Json {
  return {
    resourceType: 'Subscription', status: 'requested', end: '2027-01-01T00:00:00Z', reason: 'Tell me of new lab results',
    criteria: `${BASE}/fhir/SubscriptionTopic/lab-result`,
    _criteria: { extension: [{ url: `${SD}/backport-filter-criteria`, valueString: `DiagnosticReport?patient=${PID}` }] },
    channel: {
      extension: [
        { url: `${SD}/backport-heartbeat-period`, valueUnsignedInt: 3600 },
        { url: `${SD}/backport-timeout`, valueUnsignedInt: 20 },
        { url: `${SD}/backport-max-count`, valuePositiveInt: 5 },
      ],
      type: 'rest-hook', endpoint: 'https://hooks.example/notify', payload: 'application/fhir+json',
      _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: 'id-only' }] },
      header: ['Authorization: Bearer app-secret'],
      ...channel,
    },
    ...over,
  };
}

/** The kept form of what was posted, as the use case keeps it. */
function kept(body: Json, over: Partial<StoredSubscription> = {}): StoredSubscription {
  const p = postedSubscriptionOf(body, CTX);
  return {
    id: '0123456789abcdef0123456789abcdef', patient: TOLVAN, topic: p.topic, channel: p.channel,
    ...(p.endMs === undefined ? {} : { endMs: p.endMs }), ...(p.reason === undefined ? {} : { reason: p.reason }),
    subscriber: { issuer: 'https://issuer.example', subject: 'sub', personId: TOLVAN, clientId: 'app' },
    status: 'requested', createdMs: NOW, changedMs: NOW, eventCount: 0, deliveredThrough: 0, failures: 0, ...over,
  };
}

function refusal(body: unknown): string {
  try {
    postedSubscriptionOf(body, CTX);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('INVALID_REQUEST');
    return (err as DomainError).message;
  }
  throw new Error('not refused');
}

describe('a posted Subscription', () => {
  it('is read into the request the use case takes', () => {
    expect(postedSubscriptionOf(posted(), CTX)).toEqual({
      topic: 'lab-result', patientId: PID, endMs: Date.parse('2027-01-01T00:00:00Z'), reason: 'Tell me of new lab results',
      channel: { endpoint: 'https://hooks.example/notify', headers: ['Authorization: Bearer app-secret'], payload: 'id-only', heartbeatSeconds: 3600, timeoutSeconds: 20, maxCount: 5 },
    });
  });

  it('takes the least a subscription needs: a 10 second timeout, no heartbeat, no end, no headers', () => {
    const { status: _s, end: _e, reason: _r, ...rest } = posted({}, { extension: undefined, header: undefined });
    const channel = { ...(rest.channel as Json), _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: 'empty' }] } };
    expect(postedSubscriptionOf({ ...rest, channel }, CTX)).toEqual({
      topic: 'lab-result', patientId: PID, channel: { endpoint: 'https://hooks.example/notify', headers: [], payload: 'empty', timeoutSeconds: 10 },
    });
  });

  it('takes the topic under the vendor\'s alias base, the patient as Patient/<id>, and ignores an id and members it does not know', () => {
    const body = posted({
      id: 'chosen-by-the-app', contact: [{ system: 'email', value: 'a@example.org' }], text: { status: 'generated' },
      criteria: `${BASE}/api/open/fhir/SubscriptionTopic/access`,
      _criteria: { extension: [{ url: 'http://example.org/other', valueString: 'x' }, { url: `${SD}/backport-filter-criteria`, valueString: `AuditEvent?patient=Patient/${PID}` }] },
    });
    const p = postedSubscriptionOf(body, CTX);
    expect([p.topic, p.patientId]).toEqual(['access', PID]);
  });

  it.each([
    [{ resourceType: 'Consent' }, 'FHIR Subscription resource'],
    [[], 'FHIR Subscription resource'],
    [posted({ status: 'active' }), 'Subscription.status'],
    [posted({ modifierExtension: [{ url: 'http://example.org/x', valueBoolean: true }] }), 'Subscription.modifierExtension'],
    [posted({ criteria: undefined }), 'Subscription.criteria'],
    [posted({ criteria: `${BASE}/fhir/SubscriptionTopic/everything` }), 'Subscription.criteria'],
    [posted({ criteria: 'https://elsewhere.example/fhir/SubscriptionTopic/lab-result' }), 'Subscription.criteria'],
    [posted({ criteria: 'DiagnosticReport?patient=x' }), 'Subscription.criteria'],
    [posted({ _criteria: undefined }), 'backport-filter-criteria'],
    [posted({ end: '2020-01-01T00:00:00Z' }), 'Subscription.end'],
    [posted({ end: 'tomorrow' }), 'Subscription.end'],
    [posted({ end: '2027-01-01' }), 'Subscription.end'],
    // Hostile review helper-155, F3: a day the calendar does not have was read as the next month's (2 March).
    [posted({ end: '2027-02-30T00:00:00Z' }), 'Subscription.end'],
    [posted({ end: '2027-04-31T00:00:00Z' }), 'Subscription.end'],
    [posted({ end: '2027-01-01T24:00:00Z' }), 'Subscription.end'],
    [posted({ end: '2027-01-01T10:00:00+99:00' }), 'Subscription.end'],
    // helper-156, F5: past year 9999 in UTC it cannot be written back as a FHIR instant (it read back as +010000-…).
    [posted({ end: '9999-12-31T23:59:59-14:00' }), 'Subscription.end'],
    [posted({ reason: 42 }), 'Subscription.reason'],
    [posted({ reason: '' }), 'Subscription.reason'],
    [posted({ channel: 'rest-hook' }), 'Subscription.channel'],
    [posted({}, { type: 'websocket' }), 'Subscription.channel.type'],
    [posted({}, { _type: { extension: [{ url: `${SD}/backport-channel-type`, valueCoding: { code: 'zulip' } }] } }), 'Subscription.channel.type'],
    [posted({}, { endpoint: undefined }), 'Subscription.channel.endpoint'],
    [posted({}, { endpoint: 'not a url' }), 'Subscription.channel.endpoint'],
    [posted({}, { payload: 'application/xml' }), 'Subscription.channel.payload'],
    [posted({}, { _payload: undefined }), 'backport-payload-content'],
    [posted({}, { _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: 'most' }] } }), 'backport-payload-content'],
    [posted({}, { header: 'Authorization: Bearer x' }), 'Subscription.channel.header'],
    [posted({}, { header: ['ok: 1', 2] }), 'Subscription.channel.header'],
    [posted({}, { modifierExtension: [{ url: 'http://example.org/x' }] }), 'Subscription.channel.modifierExtension'],
    [posted({}, { extension: [{ url: `${SD}/backport-timeout`, valueUnsignedInt: 31 }] }), 'backport-timeout'],
    [posted({}, { extension: [{ url: `${SD}/backport-timeout`, valueUnsignedInt: 0 }] }), 'backport-timeout'],
    [posted({}, { extension: [{ url: `${SD}/backport-timeout`, valueString: '10' }] }), 'backport-timeout'],
    [posted({}, { extension: [{ url: `${SD}/backport-max-count`, valuePositiveInt: 101 }] }), 'backport-max-count'],
    [posted({}, { extension: [{ url: `${SD}/backport-max-count`, valuePositiveInt: 1.5 }] }), 'backport-max-count'],
    [posted({}, { extension: [{ url: `${SD}/backport-heartbeat-period`, valueUnsignedInt: -1 }] }), 'backport-heartbeat-period'],
    [posted({}, { extension: [{ url: `${SD}/backport-heartbeat-period`, valueUnsignedInt: 0 }] }), 'backport-heartbeat-period'],
    // A heartbeat every few seconds would make the service knock on a receiver for the app: at least 10.
    [posted({}, { extension: [{ url: `${SD}/backport-heartbeat-period`, valueUnsignedInt: 9 }] }), 'backport-heartbeat-period'],
    [posted({}, { extension: [{ url: `${SD}/backport-timeout`, valueUnsignedInt: 5 }, { url: `${SD}/backport-timeout`, valueUnsignedInt: 6 }] }), 'backport-timeout'],
  ])('refuses case %#, naming the element and what to send', (body, element) => {
    const message = refusal(body);
    expect(message).toContain(element);
    expect(message).toMatch(/must|needs|cannot|leave it out/);
  });

  it('refuses full-resource, saying no record content leaves through a notification', () => {
    const message = refusal(posted({}, { _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: 'full-resource' }] } }));
    expect(message).toContain('no record content leaves through a notification');
    expect(message).toContain('id-only');
  });

  const filter = (valueString: unknown, topic = 'lab-result'): Json => posted({
    criteria: `${BASE}/fhir/SubscriptionTopic/${topic}`, _criteria: { extension: [{ url: `${SD}/backport-filter-criteria`, valueString }] },
  });

  it.each([
    ['two patients', `DiagnosticReport?patient=${PID}&patient=${TEST_FHIR_IDS.patientId('198112189876')}`],
    ['two patients in one value', `DiagnosticReport?patient=${PID},${TEST_FHIR_IDS.patientId('198112189876')}`],
    ['subject', `DiagnosticReport?subject=Patient/${PID}`],
    ['a typed modifier', `DiagnosticReport?patient:Patient=${PID}`],
    ['another parameter beside it', `DiagnosticReport?patient=${PID}&status=final`],
    ['another type than the topic\'s', `Observation?patient=${PID}`],
    ['the topic\'s type of another topic', `Consent?patient=${PID}`],
    ['no patient', 'DiagnosticReport?'],
    ['no query', 'DiagnosticReport'],
    ['an empty value', 'DiagnosticReport?patient='],
    ['another resource type\'s reference', `DiagnosticReport?patient=Group/${PID}`],
    ['not a string', 42],
  ])('refuses a filter with %s, naming the filter and what to send', (_what, value) => {
    const message = refusal(filter(value));
    expect(message).toContain('backport-filter-criteria');
    expect(message).toContain('DiagnosticReport?patient=<Patient id>');
  });

  it('refuses a second filter, and none', () => {
    const two = posted({ _criteria: { extension: [
      { url: `${SD}/backport-filter-criteria`, valueString: `DiagnosticReport?patient=${PID}` },
      { url: `${SD}/backport-filter-criteria`, valueString: `DiagnosticReport?patient=${PID}` },
    ] } });
    expect(refusal(two)).toContain('exactly one');
    expect(refusal(posted({ _criteria: { extension: [] } }))).toContain('exactly one');
  });

  it('refuses an identity number for the patient however it is written, never echoing it nor falling back to anyone', () => {
    for (const value of [`DiagnosticReport?patient=${TOLVAN}`, 'DiagnosticReport?patient=Patient/191212121212', 'DiagnosticReport?patient=19121212-1212', 'DiagnosticReport?patient=121212-1212']) {
      const message = refusal(filter(value));
      expect([value, message]).toEqual([value, expect.stringContaining('never an identity number')]);
      expect(message).not.toMatch(/1212/);
    }
  });

  it('takes each topic with its own type, and only the topics offered', () => {
    const types = { appointment: 'Appointment', 'lab-result': 'DiagnosticReport', 'journal-note': 'Composition', medication: 'MedicationRequest', diagnosis: 'Condition', access: 'AuditEvent', proxy: 'Consent' };
    for (const [topic, type] of Object.entries(types)) expect(postedSubscriptionOf(filter(`${type}?patient=${PID}`, topic), CTX).topic).toBe(topic);
    expect(() => postedSubscriptionOf(filter(`Consent?patient=${PID}`, 'proxy'), { ...CTX, topics: new Set(['lab-result']) })).toThrow(/Subscription.criteria/);
  });
});

describe('a kept subscription as an R4 Subscription', () => {
  it('is what was posted, with its id, the backport profile and its status', () => {
    const body = posted();
    const resource = subscriptionResourceOf(kept(body), CTX);
    expect(resource).toEqual({ ...body, id: '0123456789abcdef0123456789abcdef', meta: { profile: [`${SD}/backport-subscription`], lastUpdated: '2026-11-21T08:00:00.000Z' }, end: '2027-01-01T00:00:00.000Z' });
    expect(postedSubscriptionOf(resource, CTX)).toEqual(postedSubscriptionOf(body, CTX));
  });

  it('writes the filter as <Type>?patient=<Patient id> and the topic under /fhir, whatever form was posted', () => {
    const body = posted({ criteria: `${BASE}/api/open/fhir/SubscriptionTopic/lab-result`, _criteria: { extension: [{ url: `${SD}/backport-filter-criteria`, valueString: `DiagnosticReport?patient=Patient/${PID}` }] } });
    const resource = subscriptionResourceOf(kept(body), CTX);
    expect([resource.criteria, resource._criteria]).toEqual([`${BASE}/fhir/SubscriptionTopic/lab-result`, { extension: [{ url: `${SD}/backport-filter-criteria`, valueString: `DiagnosticReport?patient=${PID}` }] }]);
    expect(JSON.stringify(resource)).not.toContain(TOLVAN);
  });

  it('always has a reason (R4 requires one) and a timeout, and says why it stopped', () => {
    const { reason: _r, ...body } = posted({}, { extension: undefined, header: undefined });
    const resource = subscriptionResourceOf(kept(body, { status: 'error', endReason: 'handshake-failed' }), CTX);
    expect(resource.reason).toBe('Told of new and changed lab results');
    expect(resource.status).toBe('error');
    expect(resource.error).toContain('did not answer the handshake');
    expect((resource.channel as Json).extension).toEqual([{ url: `${SD}/backport-timeout`, valueUnsignedInt: 10 }]);
    expect((resource.channel as Json).header).toBeUndefined();
    const off = subscriptionResourceOf(kept(body, { status: 'off', endReason: 'right-lost' }), CTX);
    expect([off.status, off.error]).toEqual(['off', expect.stringContaining('no longer may read')]);
    expect(subscriptionResourceOf(kept(body, { status: 'off', endReason: 'ended' }), CTX).error).toBeUndefined();
  });
});
