/**
 * docs/fhir-api.md#subscriptions: every answer of the Subscription routes is valid R4 for the
 * validators validators.test.ts runs (@medplum/core's structure, the `fhir` package, the required
 * bindings): the Subscription as created, as listed and once stopped, `$status`'s searchset and its
 * Parameters, `$events`' history Bundle with `id-only` entries that carry no resource, the
 * CapabilityStatement that lists Subscription, and a refusal's OperationOutcome.
 */
import { Fhir } from 'fhir';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numbered } from '../../../src/domain/notifications/lifecycle.js';
import type { FhirResource } from '../../../src/reads/as-fhir.js';
import { structureProblems } from '../../support/as-fhir-round-trip.js';
import { requiredBindingFaults } from '../../support/required-bindings.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { get, NOW, smartToken, TOLVAN } from './fhir-calls.js';
import { PATIENT_SCOPES, post, subscription } from './subscription-calls.js';

const fhirPackage = new Fhir();
const problems = (resources: readonly FhirResource[]): Record<string, string[]> => ({
  structure: structureProblems(resources),
  fhirPackage: resources.flatMap((r) => fhirPackage.validate(r).messages.filter((m) => m.severity === 'error').map((m) => `${r.resourceType}: ${m.location ?? ''} ${m.message ?? ''}`)),
  bindings: requiredBindingFaults(resources).faults,
});
const NONE = { structure: [], fhirPackage: [], bindings: [] };

type Bundle = FhirResource & { entry?: { resource?: FhirResource }[] };

describe('the Subscription routes\' answers are valid R4', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW, subscriptions: true });
    token = await smartToken(t, TOLVAN, PATIENT_SCOPES);
  }, 60_000);
  afterAll(async () => t.close());

  it('the Subscription, its list, $status, $events, the CapabilityStatement and a refusal', async () => {
    const body = subscription({ topic: 'access', header: ['Authorization: Bearer x'] });
    const channel = body.channel as Record<string, unknown>;
    channel.extension = [
      { url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-heartbeat-period', valueUnsignedInt: 600 },
      { url: 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-max-count', valuePositiveInt: 5 },
    ];
    const created = await post(t, body, token);
    expect(created.statusCode, created.body.slice(0, 300)).toBe(201);
    const resource = JSON.parse(created.body) as FhirResource;
    const { id } = resource;
    await t.subscriptions?.store.update(id, (s) => {
      const told = numbered(s, [{ atMs: NOW, focus: 'AuditEvent/some-entry', change: 'created' }], NOW);
      return { subscription: { ...told.subscription, status: 'error', endReason: 'delivery-failed' }, events: told.events };
    });
    const answers = await Promise.all(['/fhir/Subscription', `/fhir/Subscription/${id}`, `/fhir/Subscription/${id}/$status`, `/fhir/Subscription/${id}/$events`, '/fhir/metadata']
      .map(async (url) => {
        const res = await get(t, url, token);
        expect([url, res.statusCode]).toEqual([url, 200]);
        return JSON.parse(res.body) as Bundle;
      }));
    const [list, stopped, status, events] = answers as [Bundle, FhirResource, Bundle, Bundle];
    expect([stopped.status, typeof stopped.error]).toEqual(['error', 'string']);
    expect(events.entry?.map((e) => e.resource?.resourceType)).toEqual(['Parameters', undefined]);
    const refusal = JSON.parse((await post(t, subscription({ payload: 'full-resource' }), token)).body) as FhirResource;
    const inner = [list, status, events].flatMap((b) => (b.entry ?? []).flatMap((e) => (e.resource === undefined ? [] : [e.resource])));
    expect(problems([resource, ...answers, ...inner, refusal])).toEqual(NONE);
  });
});
