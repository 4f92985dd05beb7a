/**
 * `GET /fhir/metadata` (docs/fhir-api.md#discovery): FHIR 4.0.1, JSON, the SMART-on-FHIR security
 * service, and every type served with its interactions, search parameters, includes and operations,
 * derived from the same tables the searches and routes run on, so it cannot claim what the API does not do.
 */
import { r4Definition } from '../../domain/fhir/search-definitions.js';
import { REFERENCED_TYPES, searchOf, type FhirType } from '../../domain/fhir/search-parameters.js';
import { BACKPORT_IG, topicUrl } from '../../domain/notifications/notification-bundle.js';
import type { TopicName } from '../../domain/notifications/topics.js';
import { FHIR_OPERATIONS } from '../../domain/operations/fhir-operations.js';
import type { SmartEndpoints, TypeServing } from './fhir-api.js';
import { servesSubject } from './search-values.js';
import { SUBSCRIPTION_PROFILE } from './subscription-resource.js';

const COMPARTMENT_PATIENT = 'patient';

interface SearchParam { name: string; type: string; definition?: string }

/**
 * The parameters of `type`, each with R4's definition where R4 defines it there: not `patient` on a
 * type only served as what records reference (it names whose records are looked in), nor the ones a
 * type declares its own.
 */
function searchParams(type: FhirType): SearchParam[] {
  const def = searchOf(type);
  const own = new Set([...def.own ?? [], ...(REFERENCED_TYPES.has(type) ? [COMPARTMENT_PATIENT] : [])]);
  const param = (name: string, kind: string): SearchParam => ({ name, type: kind, ...(own.has(name) ? {} : { definition: r4Definition(type, name, def.shared) }) });
  // The access log is paged by its own cursor and has no ids to pick (audit-events.ts refuses `_id`).
  const out = type === 'AuditEvent' ? [] : [param('_id', 'token')];
  if (type === 'Patient') out.push(param('identifier', 'token'));
  else out.push(param(COMPARTMENT_PATIENT, 'reference'));
  if (servesSubject(type)) out.push(param('subject', 'reference'));
  if (def.date !== undefined) out.push(param(def.date.param, 'date'));
  for (const name of Object.keys(def.tokens ?? {})) if (name !== 'identifier') out.push(param(name, 'token'));
  for (const name of Object.keys(def.references ?? {})) if (name !== COMPARTMENT_PATIENT) out.push(param(name, 'reference'));
  return out;
}

/** `Type:param` of every reference parameter of `type`: the includes it takes. */
const includesOf = (type: FhirType): string[] => Object.keys(searchOf(type).references ?? {}).map((p) => `${type}:${p}`);

/** The revincludes a search of `type` takes: every reference parameter of a served type that may point at `type`. */
const revIncludesOf = (served: readonly TypeServing[], type: FhirType): string[] =>
  served.flatMap((s) => Object.entries(searchOf(s.type).references ?? {}).filter(([, ref]) => ref.targets.includes(type)).map(([param]) => `${s.type}:${param}`));

/** The FHIR API's own operations invoked on `type` (the patient summary on Patient). */
function operationsOf(type: FhirType): { operation?: { name: string; definition: string }[] } {
  const operations = Object.values(FHIR_OPERATIONS).filter((op) => op.type === type).map((op) => ({ name: op.code, definition: op.definition }));
  return operations.length === 0 ? {} : { operation: operations };
}

const OAUTH_URIS = 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris';

/**
 * SMART's `oauth-uris`: the very endpoints of the SMART configuration (a client may read either), or
 * no extension at all while the issuer's are not known; never a link to where they might be.
 */
function oauthUris(smart: SmartEndpoints): { extension?: { url: string; extension: { url: string; valueUri: string }[] }[] } {
  const named = [['authorize', smart.authorizationEndpoint], ['token', smart.tokenEndpoint], ['revoke', smart.revocationEndpoint]] as const;
  const uris = named.flatMap(([url, valueUri]) => (valueUri === undefined ? [] : [{ url, valueUri }]));
  return smart.authorizationEndpoint === undefined || smart.tokenEndpoint === undefined ? {} : { extension: [{ url: OAUTH_URIS, extension: uris }] };
}

/**
 * What the statement says of each served type: fixed by the tables once the routes are registered,
 * so it is built then, once, not on every `GET /fhir/metadata`.
 */
export function capabilityResources(served: readonly TypeServing[]): readonly Record<string, unknown>[] {
  return served.map((s) => {
    const includes = includesOf(s.type);
    const revIncludes = revIncludesOf(served, s.type);
    return {
      type: s.type,
      // The access log is searched, paged by its own cursor; its entries have no read by id.
      interaction: [{ code: 'read' }, { code: 'search-type' }],
      searchParam: searchParams(s.type),
      ...(includes.length === 0 ? {} : { searchInclude: includes }),
      ...(revIncludes.length === 0 ? {} : { searchRevInclude: revIncludes }),
      ...operationsOf(s.type),
    };
  });
}

/**
 * The grants a person gave, as Consents (docs/contract.md §11 "FHIR"): listed only when PROXY_GRANTS
 * is on, with exactly the interactions src/http/fhir/consent-routes.ts serves.
 */
export const CONSENT_CAPABILITY: Readonly<Record<string, unknown>> = {
  type: 'Consent',
  interaction: [{ code: 'read' }, { code: 'search-type' }, { code: 'create' }, { code: 'delete' }],
  searchParam: [
    { name: '_id', type: 'token', definition: r4Definition('Consent', '_id', {}) },
    { name: COMPARTMENT_PATIENT, type: 'reference', definition: r4Definition('Consent', COMPARTMENT_PATIENT, {}) },
  ],
};

/**
 * A person's Subscriptions (docs/fhir-api.md#subscriptions): listed only when SUBSCRIPTIONS is on, with exactly
 * the interactions and operations src/http/fhir/subscription-routes.ts serves, the backport's profile,
 * and each topic offered as the backport's topic-canonical extension (its URL from the base as it is now).
 */
export function subscriptionCapability(base: string, topics: Iterable<TopicName>): Record<string, unknown> {
  return {
    extension: [...topics].map((topic) => ({
      url: `${BACKPORT_IG}/StructureDefinition/capabilitystatement-subscriptiontopic-canonical`, valueCanonical: topicUrl(`${base}/fhir`, topic),
    })),
    type: 'Subscription',
    supportedProfile: [SUBSCRIPTION_PROFILE],
    interaction: [{ code: 'read' }, { code: 'search-type' }, { code: 'create' }, { code: 'delete' }],
    searchParam: [{ name: '_id', type: 'token', definition: r4Definition('Subscription', '_id', {}) }],
    operation: [
      { name: 'status', definition: `${BACKPORT_IG}/OperationDefinition/backport-subscription-status` },
      { name: 'events', definition: `${BACKPORT_IG}/OperationDefinition/backport-subscription-events` },
    ],
  };
}

/** The statement: `resources` from capabilityResources; the base, the issuer's endpoints and the date as they are now. */
export function capabilityStatement(resources: readonly Record<string, unknown>[], base: string, smart: SmartEndpoints, now: Date): Record<string, unknown> {
  const smartConfiguration = `${base}/fhir/.well-known/smart-configuration`;
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString().slice(0, 10),
    kind: 'instance',
    software: { name: 'Patient Data Access Service' },
    implementation: { description: 'The patient\'s record as FHIR R4: read-only, but for the grants a patient gives (Consent) where the region offers sharing, and the notifications a person asks for (Subscription) where it offers them', url: `${base}/fhir` },
    fhirVersion: '4.0.1',
    format: ['json', 'application/fhir+json'],
    rest: [{
      mode: 'server',
      security: {
        cors: true,
        service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
        ...oauthUris(smart),
        description: `SMART App Launch: the endpoints are in ${smartConfiguration}.`,
      },
      resource: resources,
    }],
  };
}
