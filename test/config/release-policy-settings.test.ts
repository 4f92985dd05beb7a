import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/start/config.js';
import { GUARDIAN_LIMITED_OPERATIONS } from '../../src/domain/operations/table.js';
import { ReleasePolicySchema } from '../../src/domain/release/release-policy.js';
import { parseReleasePolicy } from '../../src/start/release-policy-settings.js';
import { refusal } from '../support/config-refusal.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';

const EXAMPLE = path.join(REPOSITORY_ROOT, 'examples', 'release-policy.json');
const fail = (message: string) => new ConfigError(message);
const parse = (policy: unknown) => parseReleasePolicy(JSON.stringify(policy), 'policy.json', fail);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'release-policy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('RELEASE_POLICY_FILE, validated at start (issue 14 item 2)', () => {
  it('issue 52 item 18: demo mode without the setting runs the example policy (examples/release-policy.json), the FHIR one with EHR_ADAPTER=fhir-r4', async () => {
    const example = JSON.parse(await readFile(EXAMPLE, 'utf8')) as unknown;
    expect(loadConfig({}).releasePolicy).toEqual(example);
    expect(loadConfig({ RELEASE_POLICY_FILE: '  ' }).releasePolicy).toEqual(example);
    const fhirExample = JSON.parse(await readFile(path.join(REPOSITORY_ROOT, 'examples', 'release-policy-fhir.json'), 'utf8')) as unknown;
    expect(loadConfig({ EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' }).releasePolicy).toEqual(fhirExample);
  });

  it('issue 52 item 18: outside demo mode the start stops without the setting, naming it and RELEASE_POLICY_FILE=none', () => {
    const production = { AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-hhhhhhhhhhhh' };
    for (const unset of [{}, { RELEASE_POLICY_FILE: '  ' }] as Array<Record<string, string>>) {
      const message = refusal({ ...production, ...unset });
      expect(message).not.toContain('\n');
      expect(message).toMatch(/^RELEASE_POLICY_FILE must be set outside demo mode/);
      expect(message).toContain('RELEASE_POLICY_FILE=none');
    }
  });

  it('issue 52 item 18: RELEASE_POLICY_FILE=none, said explicitly, withholds nothing, in demo mode and outside it', () => {
    expect(loadConfig({ RELEASE_POLICY_FILE: 'none' }).releasePolicy).toBeUndefined();
    const production = { AUTH_ISSUER: 'https://login.region.example', SUBSCRIPTION_KEYS: 'app:subscription-key-hhhhhhhhhhhh' };
    expect(loadConfig({ ...production, RELEASE_POLICY_FILE: ' none ' }).releasePolicy).toBeUndefined();
  });

  it('issue 14 item 2: examples/release-policy.json validates and holds every rule kind of the schema', () => {
    const policy = loadConfig({ RELEASE_POLICY_FILE: EXAMPLE }).releasePolicy;
    expect(Object.keys(policy ?? {}).sort()).toEqual(Object.keys(ReleasePolicySchema.properties).sort());
    expect(policy?.careUnits?.unitIds).toHaveLength(1);
    expect(policy?.careUnits?.accessZoneIds).toHaveLength(1);
    expect(Object.keys(policy?.guardianAgeLimit?.operations ?? {}).every((op) => (GUARDIAN_LIMITED_OPERATIONS as readonly string[]).includes(op))).toBe(true);
  });

  it('issue 14 item 2: docs/running.md and docs/release-policy.md show the example file as it is', async () => {
    const example = JSON.parse(await readFile(EXAMPLE, 'utf8')) as unknown;
    for (const document of [path.join('docs', 'running.md'), path.join('docs', 'release-policy.md')]) {
      const text = await readFile(path.join(REPOSITORY_ROOT, document), 'utf8');
      const shown = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? '') as unknown);
      expect(shown, document).toContainEqual(example);
    }
  });

  it('issue 14 item 2: refuses a file that is missing or not JSON, naming the setting', async () => {
    expect(() => loadConfig({ RELEASE_POLICY_FILE: path.join(dir, 'absent.json') })).toThrow(/RELEASE_POLICY_FILE .*absent\.json cannot be read \(ENOENT\)/);
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{ "signingDelay": { "days": 14 }, }');
    expect(() => loadConfig({ RELEASE_POLICY_FILE: broken })).toThrow(ConfigError);
    expect(() => loadConfig({ RELEASE_POLICY_FILE: broken })).toThrow(/RELEASE_POLICY_FILE .*broken\.json is not valid JSON/);
  });

  it('issue 14 item 2: names a misspelt rule or member instead of ignoring it', () => {
    expect(() => parse({ signingDelays: { days: 14 } })).toThrow(/\(top level\): unknown member "signingDelays"/);
    expect(() => parse({ careUnits: { unitId: [{ root: '1.2', extension: 'X' }] } })).toThrow(/\/careUnits: unknown member "unitId"/);
    expect(() => parse({ guardianAgeLimit: { operations: { getJournalnotes: 13 } } })).toThrow(/\/guardianAgeLimit\/operations: unknown member "getJournalnotes"/);
  });

  it('issue 44 item 13: the patient\'s own age limit names only the reads the policy filters (the patient always reads their own access log), at an age of 1 to 17', () => {
    expect(parse({ patientAgeLimit: { operations: { getJournalNotes: 16 } } })).toEqual({ patientAgeLimit: { operations: { getJournalNotes: 16 } } });
    expect(() => parse({ patientAgeLimit: { operations: { getAccessLog: 16 } } })).toThrow(/\/patientAgeLimit\/operations: unknown member "getAccessLog"/);
    expect(() => parse({ patientAgeLimit: { operations: { getJournalnotes: 16 } } })).toThrow(/\/patientAgeLimit\/operations: unknown member "getJournalnotes"/);
    expect(() => parse({ patientAgeLimit: { operations: { getJournalNotes: 18 } } })).toThrow(/\/patientAgeLimit\/operations\/getJournalNotes must be <= 17/);
    expect(() => parse({ patientAgeLimit: { operations: {} } })).toThrow(/\/patientAgeLimit\/operations must not have fewer than 1 properties/);
    // Issue 52 item 20: it never holds a client token, so a rule saying whether it does is refused, not ignored.
    for (const applyToClientTokens of [true, false]) {
      expect(() => parse({ patientAgeLimit: { operations: { getJournalNotes: 16 }, applyToClientTokens } }))
        .toThrow(/\/patientAgeLimit: unknown member "applyToClientTokens"/);
    }
  });

  it('issue 14 item 2: names the member whose value is wrong', () => {
    expect(() => parse({ signingDelay: { days: '14' } })).toThrow(/\/signingDelay\/days must be integer/);
    expect(() => parse({ signingDelay: { days: 0 } })).toThrow(/\/signingDelay\/days must be >= 1/);
    expect(() => parse({ noteSecrecyLevels: { levels: [] } })).toThrow(/\/noteSecrecyLevels\/levels must not have fewer than 1 items/);
    expect(() => parse({ keywords: { names: [''] } })).toThrow(/\/keywords\/names\/0 must not have fewer than 1 characters/);
    expect(() => parse({ unsignedNotes: {} })).toThrow(/\/unsignedNotes: missing member "withhold"/);
    expect(() => parse({ guardianAgeLimit: { operations: { getJournalNotes: 18 } } })).toThrow(/\/guardianAgeLimit\/operations\/getJournalNotes must be <= 17/);
    expect(() => parse({ guardianAgeLimit: { operations: {} } })).toThrow(/\/guardianAgeLimit\/operations must not have fewer than 1 properties/);
    expect(() => parse({ careUnits: { unitIds: [{ root: '1.2' }] } })).toThrow(/\/careUnits\/unitIds\/0: missing member "extension"/);
    expect(() => parse({ careUnits: { applyToClientTokens: false } })).toThrow(/\/careUnits must list unitIds or accessZoneIds/);
    expect(() => parse([])).toThrow(/\(top level\) must be object/);
  });

  it('issue 14 item 2: accepts an empty policy and a single rule', () => {
    expect(parse({})).toEqual({});
    expect(parse({ unsignedNotes: { withhold: true, applyToClientTokens: false } })).toEqual({ unsignedNotes: { withhold: true, applyToClientTokens: false } });
  });
});

describe('issue 34 item 2: with EHR_ADAPTER=fhir-r4 the policy is written in FHIR\'s codes (docs/release-policy.md#a-fhir-ehr)', () => {
  const FHIR = { EHR_ADAPTER: 'fhir-r4', EHR_BASE_URL: 'http://127.0.0.1:8091/fhir', FHIR_ID_ROOT: '1.2.752.99999.1.1' };
  const FHIR_EXAMPLE = path.join(REPOSITORY_ROOT, 'examples', 'release-policy-fhir.json');

  it('issue 34 item 2: examples/release-policy.json stops the start in one line naming each level rule and the codes a FHIR EHR sends', () => {
    const message = refusal({ ...FHIR, RELEASE_POLICY_FILE: EXAMPLE });
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^RELEASE_POLICY_FILE .*release-policy\.json /);
    expect(message).toContain('EHR_ADAPTER=fhir-r4');
    expect(message).toContain('noteSecrecyLevels names "Sekretess"');
    expect(message).toContain('keywordSecrecyLevels names "Känslig uppgift"');
    expect(message).toContain('contactSecrecyLevels names "Sekretess"');
    expect(message).toMatch(/U, L, M, N, R, V/);
    expect(message).toContain('examples/release-policy-fhir.json');
  });

  it('issue 34 item 2: examples/release-policy-fhir.json starts with fhir-r4 and names only v3-Confidentiality codes', () => {
    const policy = loadConfig({ ...FHIR, RELEASE_POLICY_FILE: FHIR_EXAMPLE }).releasePolicy;
    expect(policy?.noteSecrecyLevels?.levels).toEqual(['R', 'V']);
    expect(policy?.contactSecrecyLevels?.levels).toEqual(['R', 'V']);
  });

  it('issue 34 item 2: docs/release-policy.md shows examples/release-policy-fhir.json as it is', async () => {
    const example = JSON.parse(await readFile(FHIR_EXAMPLE, 'utf8')) as unknown;
    const text = await readFile(path.join(REPOSITORY_ROOT, 'docs', 'release-policy.md'), 'utf8');
    const shown = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1] ?? '') as unknown);
    expect(shown).toContainEqual(example);
  });

  it('issue 34 item 2: the records adapter decides, not the registry\'s: FHIR records with an xml-http registry are held to FHIR codes, xml-http records with a FHIR registry are not', () => {
    expect(refusal({
      ...FHIR, DELEGATION_REGISTRY: 'xml-http', DELEGATION_REGISTRY_URL: 'http://127.0.0.1:8090', RELEASE_POLICY_FILE: EXAMPLE,
    })).toMatch(/noteSecrecyLevels names "Sekretess"/);
    expect(refusal({
      EHR_ADAPTER: 'xml-http', EHR_BASE_URL: 'http://127.0.0.1:8090', FHIR_ID_ROOT: '1.2.752.99999.1.1',
      DELEGATION_REGISTRY: 'fhir-r4', DELEGATION_REGISTRY_URL: 'http://127.0.0.1:8091/fhir', RELEASE_POLICY_FILE: EXAMPLE,
    })).toBe('started');
    expect(refusal({ RELEASE_POLICY_FILE: EXAMPLE })).toBe('started');
  });
});
