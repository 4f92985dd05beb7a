/**
 * What the Subscription tests share (docs/fhir-api.md#subscriptions): a Subscription as an app posts it, and the
 * calls of each route as a SMART app sends them (a token, no subscription key).
 */
import type { LightMyRequestResponse } from 'fastify';
import { SUBSCRIPTION_TEST_ENDPOINT } from '../../support/subscription-wiring.js';
import { TEST_PUBLIC_BASE_URL, type TestApp } from '../../support/test-app.js';
import { pid } from './fhir-calls.js';

export const SD = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';
export const ENDPOINT = `${SUBSCRIPTION_TEST_ENDPOINT}notify`;
/** Create, delete and read Subscriptions, and read every type, for the launch patient. */
export const PATIENT_SCOPES = 'patient/Subscription.cd patient/Subscription.rs patient/*.rs';
/** The same for everyone the person may act for. */
export const USER_SCOPES = 'user/Subscription.write user/Subscription.read user/*.rs';

/** The type a topic's filter names. */
const TYPES: Readonly<Record<string, string>> = {
  appointment: 'Appointment', 'lab-result': 'DiagnosticReport', 'journal-note': 'Composition', medication: 'MedicationRequest',
  diagnosis: 'Condition', access: 'AuditEvent', proxy: 'Consent',
};

export interface Posted {
  topic?: string;
  /** The filter's value; `<Type>?patient=<id of patient>` unless given. */
  filter?: string;
  patient?: string;
  payload?: string;
  endpoint?: string;
  header?: string[];
  [member: string]: unknown;
}

/** A Subscription of `topic` (lab-result) for `patient`, as an app posts it. */
export function subscription({ topic = 'lab-result', filter, patient, payload = 'id-only', endpoint = ENDPOINT, header, ...rest }: Posted = {}): Record<string, unknown> {
  return {
    resourceType: 'Subscription', status: 'requested', reason: 'Tell me', end: '2027-06-01T00:00:00Z',
    criteria: `${TEST_PUBLIC_BASE_URL}/fhir/SubscriptionTopic/${topic}`,
    _criteria: { extension: [{ url: `${SD}/backport-filter-criteria`, valueString: filter ?? `${TYPES[topic] ?? ''}?patient=${pid(patient ?? '191212121212')}` }] },
    channel: {
      type: 'rest-hook', endpoint, payload: 'application/fhir+json',
      _payload: { extension: [{ url: `${SD}/backport-payload-content`, valueCode: payload }] },
      ...(header === undefined ? {} : { header }),
    },
    ...rest,
  };
}

export const post = (t: TestApp, body: unknown, token: string, url = '/fhir/Subscription', headers: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
  t.call({ method: 'POST', url, key: null, token, headers: { 'content-type': 'application/fhir+json', ...headers }, payload: typeof body === 'string' ? body : JSON.stringify(body) });

export const del = (t: TestApp, id: string, token: string): Promise<LightMyRequestResponse> => t.call({ method: 'DELETE', url: `/fhir/Subscription/${id}`, key: null, token });
