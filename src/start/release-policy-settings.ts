/**
 * RELEASE_POLICY_FILE (docs/contract.md#only-what-may-be-released): the region's release rules, read and validated once at start.
 * A file that is missing, not JSON, or not a valid policy stops the start with a message naming
 * the member at fault: a rule silently not applied would show patients what the region withholds.
 * So does a secrecy level the records' EHR never sends (docs/release-policy.md#a-fhir-ehr).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { GUARDIAN_LIMITED_OPERATIONS, RELEASE_FILTERED_READS } from '../domain/operations/table.js';
import { levelsFhirNeverSends, V3_CONFIDENTIALITY_CODES } from '../domain/release/fhir-secrecy-levels.js';
import { policyFaults, ReleasePolicySchema, type ReleasePolicy } from '../domain/release/release-policy.js';
import { DEMO_POLICY_FILES } from './demo-policies.js';
import type { EhrAdapterKind } from './fhir-settings.js';

export interface ReleasePolicySettings {
  /** Undefined: RELEASE_POLICY_FILE=none, said explicitly; nothing is withheld. */
  releasePolicy: ReleasePolicy | undefined;
  /**
   * Where the policy came from, for the start line: the file named, the example demo mode runs
   * without the setting, or `none`. Absent in a Config a test makes by hand.
   */
  releasePolicySource?: ReleasePolicySource;
}

export type ReleasePolicySource = { kind: 'file' | 'demo example'; file: string } | { kind: 'none' };

/** RELEASE_POLICY_FILE's value that withholds nothing: only ever said, never the default. */
export const NO_RELEASE_POLICY = 'none';

/**
 * The example demo mode runs (docs/release-policy.md): the README's walkthrough then shows what a
 * region withholds, not a guardian reading her child's Barnahus note. Beside dist/start/ (dist/examples,
 * in the image too), else the repository's examples/ (run from src/start/ by tsx).
 */
function demoExample(records: 'xml' | 'fhir-r4'): string {
  const name = DEMO_POLICY_FILES[records];
  const built = fileURLToPath(new URL(`../examples/${name}`, import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL(`../../examples/${name}`, import.meta.url));
}

type Env = Readonly<Record<string, string | undefined>>;

const MAX_FAULTS = 5;

/**
 * The schema checked by ajv, which the HTTP layer loads anyway, rather than typebox/value, whose
 * schema engine would stay in every process's heap for this one check at start (2.3 MiB; BENCHMARKS.md,
 * issue 20 item 6, ninth round). Every fault at once: a local file, not a caller's input.
 */
function faultsOf(json: unknown): string[] {
  const check = new Ajv({ allErrors: true }).compile(ReleasePolicySchema);
  if (check(json)) return [];
  const unknown = new Map<string, string[]>();
  const faults: string[] = [];
  for (const fault of check.errors ?? []) {
    const at = fault.instancePath === '' ? '(top level)' : fault.instancePath;
    if (fault.keyword === 'additionalProperties') unknown.set(at, [...unknown.get(at) ?? [], `"${String(fault.params.additionalProperty)}"`]);
    else if (fault.keyword === 'required') faults.push(`${at}: missing member "${String(fault.params.missingProperty)}"`);
    else faults.push(`${at} ${(fault.message ?? 'is not valid').replace('must NOT', 'must not')}`);
  }
  return [...[...unknown].map(([at, names]) => `${at}: unknown member ${names.join(', ')}`), ...faults];
}

/** The policy in `text`, or the faults that make it none; `source` names the file in messages. */
export function parseReleasePolicy(text: string, source: string, fail: (message: string) => Error): ReleasePolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw fail(`RELEASE_POLICY_FILE ${source} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const faults = [...new Set(faultsOf(json))];
  if (faults.length === 0) faults.push(...policyFaults(json as ReleasePolicy, { guardian: GUARDIAN_LIMITED_OPERATIONS, patient: RELEASE_FILTERED_READS }));
  if (faults.length > 0) {
    const more = faults.length > MAX_FAULTS ? ` (and ${faults.length - MAX_FAULTS} more)` : '';
    throw fail(`RELEASE_POLICY_FILE ${source} is not a valid release policy: ${faults.slice(0, MAX_FAULTS).join('; ')}${more}`);
  }
  return Object.freeze(json as ReleasePolicy);
}

/**
 * A FHIR EHR's secrecy levels are v3-Confidentiality codes: a rule naming another level would never
 * match. Only the records' adapter (EHR_ADAPTER) counts: the delegation registry holds no secrecy levels.
 */
export function refuseLevelsFhirNeverSends(policy: ReleasePolicy, source: string, fail: (message: string) => Error): void {
  const found = levelsFhirNeverSends(policy);
  if (found.length === 0) return;
  const rules = found.map(({ rule, levels }) => `${rule} names ${levels.map((l) => `"${l}"`).join(', ')}`).join('; ');
  throw fail(`RELEASE_POLICY_FILE ${source} names secrecy levels a FHIR EHR never sends (EHR_ADAPTER=fhir-r4): ${rules}; `
    + `write them as v3-Confidentiality codes (${V3_CONFIDENTIALITY_CODES.join(', ')}), e.g. "R", as examples/release-policy-fhir.json does`);
}

/**
 * The policy is never silently off (issue 52 item 18): outside demo mode the setting is required,
 * `none` to withhold nothing; demo mode without it runs the example for the records' EHR.
 */
export function readReleasePolicySettings(env: Env, records: EhrAdapterKind, demo: boolean, fail: (message: string) => Error): ReleasePolicySettings {
  const setting = env.RELEASE_POLICY_FILE?.trim() ?? '';
  if (setting === NO_RELEASE_POLICY) return { releasePolicy: undefined, releasePolicySource: { kind: 'none' } };
  if (setting === '' && !demo) {
    throw fail('RELEASE_POLICY_FILE must be set outside demo mode: name the region\'s release policy file (docs/release-policy.md), '
      + `or set RELEASE_POLICY_FILE=${NO_RELEASE_POLICY} to withhold nothing from patients and their delegates`);
  }
  const source: ReleasePolicySource = setting === '' ? { kind: 'demo example', file: demoExample(records === 'fhir-r4' ? 'fhir-r4' : 'xml') } : { kind: 'file', file: setting };
  let text: string;
  try {
    text = readFileSync(source.file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw fail(`RELEASE_POLICY_FILE ${source.file} cannot be read (${code})`);
  }
  const releasePolicy = parseReleasePolicy(text, source.file, fail);
  if (records === 'fhir-r4') refuseLevelsFhirNeverSends(releasePolicy, source.file, fail);
  return { releasePolicy, releasePolicySource: source };
}
