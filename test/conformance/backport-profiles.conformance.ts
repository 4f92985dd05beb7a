/**
 * The backport oracle (backport-profiles.ts) is an oracle: it passes the IG's own R4 examples, as
 * SUSHI compiled them from the IG's FSH at v1.1.0, and fails each mutation of them, saying why; and
 * Medplum alone, given the same profiles, would not have (the last test shows where it errs).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateResource, type OperationOutcomeError } from '@medplum/core';
import type { Resource, StructureDefinition } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import {
  BACKPORT_EXTENSIONS, BACKPORT_PROFILES, backportProblems, backportProfilesDir, unjudgedBindings,
  type BackportOptions, type BackportProfile,
} from '../support/backport-profiles.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- mutations reach into any member
const read = (file: string): Json => JSON.parse(readFileSync(path.join(backportProfilesDir(), file), 'utf8')) as Json;
const example = (name: string): Json => read(`examples/${name}.json`);

const NOTIFICATION = 'backport-subscription-notification-r4';
const STATUS = 'backport-subscription-status-r4';
const SUBSCRIPTION = 'backport-subscription';
/** Each R4 example of the IG with the profile it is an instance of and, for a notification, the payload content it shows. */
const EXAMPLES: Record<string, [BackportProfile, BackportOptions]> = {
  'Subscription-subscription-admission': [SUBSCRIPTION, {}],
  'Subscription-subscription-multi-resource': [SUBSCRIPTION, {}],
  'Subscription-subscription-zulip': [SUBSCRIPTION, {}],
  'Parameters-r4-notification-status': [STATUS, {}],
  'Bundle-r4-notification-handshake': [NOTIFICATION, {}],
  'Bundle-r4-notification-heartbeat': [NOTIFICATION, {}],
  'Bundle-r4-notification-error': [NOTIFICATION, {}],
  'Bundle-r4-notification-empty': [NOTIFICATION, { content: 'empty' }],
  'Bundle-r4-notification-id-only': [NOTIFICATION, { content: 'id-only' }],
  'Bundle-r4-notification-full-resource': [NOTIFICATION, { content: 'full-resource' }],
  'Bundle-r4-notification-multi-resource': [NOTIFICATION, { content: 'full-resource' }],
};
const TOPIC_EXAMPLE = 'CapabilityStatement-r4-capabilitystatement-example-server';

const param = (p: Json, name: string): Json => (p.parameter as Json[]).find((x) => x.name === name) as Json;
const idOnlyEntry = { fullUrl: 'https://example.org/fhir/Encounter/86009987', request: { method: 'PUT', url: 'Encounter/86009987' }, response: { status: '200' } };
const VS = 'http://hl7.org/fhir/uv/subscriptions-backport/ValueSet/backport-content-value-set';

/** [what is wrong, the example it is made from, the mutation, its options, what the oracle must say]. */
const MUTATIONS: [string, string, (r: Json) => void, BackportOptions, string[]][] = [
  ['a Subscription without channel.payload', 'Subscription-subscription-admission', (s) => { delete s.channel.payload; delete s.channel._payload; }, {},
    ['Subscription.channel.payload: 1 required by Subscription.channel.payload, found 0']],
  ['a Subscription without its payload content', 'Subscription-subscription-admission', (s) => { delete s.channel._payload; }, {}, [
    'Subscription.channel.payload.extension: 1 required by Subscription.channel.payload.extension, found 0',
    'Subscription.channel.payload.extension: slice content (Subscription.channel.payload.extension:content) needs 1..1, found 0']],
  ['payload content `everything`', 'Subscription-subscription-admission', (s) => { s.channel._payload.extension[0].valueCode = 'everything'; }, {},
    [`Subscription.channel.payload.extension[0].valueCode: "everything" is not in the required ValueSet ${VS}`]],
  ['a Subscription without criteria', 'Subscription-subscription-admission', (s) => { delete s.criteria; delete s._criteria; }, {},
    ['Subscription.criteria: Missing required property', 'Subscription.criteria: 1 required by Subscription.criteria, found 0']],
  ['a heartbeat period given as a string', 'Subscription-subscription-admission', (s) => { s.channel.extension[0] = { url: s.channel.extension[0].url, valueString: '60' }; }, {},
    ['Subscription.channel.extension[0].valueString: valueString is not allowed by Extension.value[x] of backport-heartbeat-period (its types: unsignedInt)']],
  ['two timeouts', 'Subscription-subscription-admission', (s) => { s.channel.extension.push(s.channel.extension[1]); }, {},
    ['Subscription.channel.extension: slice timeout (Subscription.channel.extension:timeout) needs 0..1, found 2']],
  ['a notification Bundle of type searchset', 'Bundle-r4-notification-id-only', (b) => { b.type = 'searchset'; }, {}, [
    'Bundle: Constraint bdl-3 not met: entry.request mandatory for batch/transaction/history, otherwise prohibited',
    'Bundle.type: must match "history" (Bundle.type), is "searchset"']],
  ['a notification Bundle whose first entry is not the Parameters', 'Bundle-r4-notification-id-only', (b) => { b.entry.unshift(idOnlyEntry); }, { content: 'id-only' },
    ['Bundle: invariant backport-notification-bundle-r4-1 not met: A notification bundle MUST have a Parameters as the first entry']],
  ['a status Parameters without subscription', 'Bundle-r4-notification-id-only', (b) => { b.entry[0].resource.parameter.splice(0, 1); }, {},
    ['Bundle.entry[0].resource.parameter: slice subscription (Parameters.parameter:subscription) needs 1..1, found 0']],
  ['a status of type bogus', 'Parameters-r4-notification-status', (p) => { param(p, 'type').valueCode = 'bogus'; }, {},
    ['Parameters.parameter[2].valueCode: "bogus" is not in the required ValueSet http://hl7.org/fhir/ValueSet/subscription-notification-type']],
  ['an event-number given as an integer', 'Parameters-r4-notification-status', (p) => { param(p, 'notification-event').part[0] = { name: 'event-number', valueInteger: 2 }; }, {},
    ['Parameters.parameter[5].part[0].valueInteger: valueInteger is not allowed by Parameters.parameter:notificationEvent.part:eventNumber.value[x] (its types: string)']],
  ['an id-only entry with a resource', 'Bundle-r4-notification-id-only', (b) => { b.entry.push({ ...idOnlyEntry, resource: example('Bundle-r4-notification-full-resource').entry[1].resource }); },
    { content: 'id-only' }, ['Bundle.entry[1].resource: an id-only payload carries no resource (IG payloads, Id Only)']],
  ['an id-only event without its focus', 'Bundle-r4-notification-empty', () => undefined, { content: 'id-only' },
    ['Bundle.entry[0].resource.parameter[5]: an id-only payload names each event\'s focus (IG payloads, Id Only)']],
  ['an empty payload naming a focus', 'Bundle-r4-notification-id-only', () => undefined, { content: 'empty' },
    ['Bundle.entry[0].resource.parameter[5].part[2]: an empty payload names no focus (IG payloads, Empty)']],
];

describe('the Subscriptions Backport R4 profiles, as an oracle', () => {
  it('reads the IG at v1.1.0: its three R4 profiles and their extensions', () => {
    expect(read('generated.json')).toMatchObject({ ig: 'hl7.fhir.uv.subscriptions-backport', tag: 'v1.1.0' });
    for (const id of [...BACKPORT_PROFILES, ...BACKPORT_EXTENSIONS]) {
      expect(read(`StructureDefinition-${id}.json`), id).toMatchObject({ url: `http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/${id}`, fhirVersion: '4.0.1' });
      expect(read(`StructureDefinition-${id}.json`).snapshot.element.length, id).toBeGreaterThanOrEqual(5);
    }
  });

  it('judges every required binding of the profiles but the one a grammar defines (MIME types)', () => {
    expect(unjudgedBindings()).toEqual(['Subscription.channel.payload -> http://hl7.org/fhir/ValueSet/mimetypes|4.0.1']);
  });

  it('passes every R4 example of the IG', () => {
    const files = readdirSync(path.join(backportProfilesDir(), 'examples')).map((f) => f.replace(/\.json$/, ''));
    expect(files.sort()).toEqual([...Object.keys(EXAMPLES), TOPIC_EXAMPLE].sort());
    for (const [name, [profile, options]] of Object.entries(EXAMPLES)) expect([name, backportProblems(example(name), profile, options)]).toEqual([name, []]);
    const topics = (example(TOPIC_EXAMPLE).rest[0].resource as Json[]).flatMap((r) => (r.extension ?? []) as Json[]);
    expect(topics.length).toBeGreaterThan(0);
    for (const t of topics) expect(backportProblems(t, 'capabilitystatement-subscriptiontopic-canonical')).toEqual([]);
  });

  it('passes the id-only notification the service sends: an entry per focus with fullUrl, request and response, no resource', () => {
    const bundle = example('Bundle-r4-notification-id-only');
    bundle.entry.push(idOnlyEntry);
    expect(backportProblems(bundle, NOTIFICATION, { content: 'id-only' })).toEqual([]);
  });

  it.each(MUTATIONS)('fails %s, saying why', (_, name, mutate, options, issues) => {
    const resource = example(name);
    mutate(resource);
    const profile = EXAMPLES[name]?.[0] as BackportProfile;
    expect(backportProblems(resource, profile, options)).toEqual(issues);
  });

  it('refuses a resource of another type, and payload rules for anything but a notification', () => {
    expect(backportProblems(example('Parameters-r4-notification-status'), SUBSCRIPTION)).toEqual(['Parameters: backport-subscription profiles a Subscription']);
    expect(() => backportProblems(example('Parameters-r4-notification-status'), STATUS, { content: 'empty' })).toThrow('for a notification Bundle only');
  });

  it('is needed: Medplum 4.5.2 given the profile errs on the IG\'s own examples and misses what the profile says below the top', () => {
    const medplum = (resource: Json, profile: string): string[] => {
      try {
        validateResource(resource as Resource, { profile: read(`StructureDefinition-${profile}.json`) as StructureDefinition });
        return [];
      } catch (error) {
        return (error as OperationOutcomeError).outcome.issue?.map((i) => i.details?.text ?? '') ?? [];
      }
    };
    // A `type` discriminator on a child and nested slicing: it matches neither, and reports valid examples.
    expect(medplum(example('Bundle-r4-notification-handshake'), NOTIFICATION))
      .toEqual(['Incorrect number of values provided for slice \'subscriptionStatus\': expected 1..1, but found 0']);
    expect(medplum(example('Parameters-r4-notification-status'), STATUS))
      .toEqual(['Incorrect number of values provided for slice \'eventNumber\': expected 1..1, but found 0']);
    // Below the top level it checks base R4 only: the first three mutations above pass.
    for (const [, name, mutate] of MUTATIONS.slice(0, 3)) {
      const resource = example(name);
      mutate(resource);
      expect(medplum(resource, SUBSCRIPTION)).toEqual([]);
    }
  });
});
