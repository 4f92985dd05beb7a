/**
 * RELEASE_POLICY_FILE (docs/contract.md#only-what-may-be-released): the region's release rules, read and validated once at start.
 * A file that is missing, not JSON, or not a valid policy stops the start with a message naming
 * the member at fault: a rule silently not applied would show patients what the region withholds.
 */
import { readFileSync } from 'node:fs';
import { Value } from 'typebox/value';
import { RELEASE_FILTERED_READS } from './domain/operations/table.js';
import { policyFaults, ReleasePolicySchema, type ReleasePolicy } from './domain/release/release-policy.js';

export interface ReleasePolicySettings {
  /** Undefined: no file, nothing is withheld. */
  releasePolicy: ReleasePolicy | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const MAX_FAULTS = 5;

interface SchemaFault {
  keyword: string;
  instancePath: string;
  message: string;
  params: { additionalProperties?: string[]; requiredProperties?: string[] };
}

function describe(fault: SchemaFault): string | undefined {
  const at = fault.instancePath === '' ? '(top level)' : fault.instancePath;
  const names = (list: string[] | undefined) => (list ?? []).map((n) => `"${n}"`).join(', ');
  if (fault.keyword === 'additionalProperties') return `${at}: unknown member ${names(fault.params.additionalProperties)}`;
  if (fault.keyword === 'required') return `${at}: missing member ${names(fault.params.requiredProperties)}`;
  // The per-member echo of additionalProperties ("schema is false"), already said above.
  if (fault.keyword === 'boolean') return undefined;
  return `${at} ${fault.message}`;
}

/** The policy in `text`, or the faults that make it none; `source` names the file in messages. */
export function parseReleasePolicy(text: string, source: string, fail: (message: string) => Error): ReleasePolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw fail(`RELEASE_POLICY_FILE ${source} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  const faults = [...new Set([...Value.Errors(ReleasePolicySchema, json)]
    .map((f) => describe(f as unknown as SchemaFault)).filter((f): f is string => f !== undefined))];
  if (faults.length === 0) faults.push(...policyFaults(json as ReleasePolicy, RELEASE_FILTERED_READS));
  if (faults.length > 0) {
    const more = faults.length > MAX_FAULTS ? ` (and ${faults.length - MAX_FAULTS} more)` : '';
    throw fail(`RELEASE_POLICY_FILE ${source} is not a valid release policy: ${faults.slice(0, MAX_FAULTS).join('; ')}${more}`);
  }
  return Object.freeze(json as ReleasePolicy);
}

export function readReleasePolicySettings(env: Env, fail: (message: string) => Error): ReleasePolicySettings {
  const file = env.RELEASE_POLICY_FILE?.trim();
  if (file === undefined || file === '') return { releasePolicy: undefined };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw fail(`RELEASE_POLICY_FILE ${file} cannot be read (${code})`);
  }
  return { releasePolicy: parseReleasePolicy(text, file, fail) };
}
