/**
 * Issue 38 part 2: the Kubernetes manifests of deploy/ (docs/operations.md#kubernetes). The base and
 * each overlay are rendered with `kubectl kustomize`, every object is validated against the
 * Kubernetes schemas of the npm package kubernetes-models (the ExternalSecrets against the External
 * Secrets Operator's CRD schemas, @kubernetes-models/external-secrets), with no field the schema does
 * not define, and the rules of ./policy.ts hold. Without kubectl the file is skipped, except in CI.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/start/config.js';
import { documentedSettings } from '../support/settings-tables.js';
import { REPOSITORY_ROOT } from '../support/upstream-examples.js';
import { validateObject } from './kubernetes-schemas.js';
import { drainProblems, podSpecs, probeProblems, resourceProblems, secretProblems, securityProblems } from './policy.js';
import { KUBECTL, KUBECTL_INSTALL, render, skipWithout, type K8sObject } from './tools.js';

const FOLDERS = ['base', 'overlays/staging', 'overlays/production'];
const OVERLAYS = FOLDERS.filter((f) => f.startsWith('overlays/'));

const renders = new Map<string, K8sObject[]>();
const rendered = (dir: string): K8sObject[] => {
  const known = renders.get(dir);
  if (known !== undefined) return known;
  const objects = render(dir);
  renders.set(dir, objects);
  return objects;
};
const one = (objects: K8sObject[], kind: string, name?: string): K8sObject => {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  expect(found.map((o) => o.metadata.name), `one ${kind}${name === undefined ? '' : ` ${name}`}`).toHaveLength(1);
  return found[0] as K8sObject;
};
const settings = (objects: K8sObject[]): Record<string, string> =>
  one(objects, 'ConfigMap', objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('patient-data-access-settings'))?.metadata.name).data as Record<string, string>;
const clone = <T>(value: T): T => structuredClone(value);
/** What the service reads from a file mounted from a Secret, in the form it takes. */
const STAND_INS: Record<string, string> = {
  SUBSCRIPTION_KEYS_FILE: 'check-in-kiosk:0123456789abcdef0123\n',
  AUDIT_CHAIN_KEY_FILE: `stand-in:${'0'.repeat(64)}\n`,
  ACCESS_LOG_CURSOR_SECRET_FILE: `${'c'.repeat(40)}\n`,
  FHIR_ID_SECRET_FILE: `${'f'.repeat(40)}\n`,
  SIGN_IN_CLIENTS_FILE: JSON.stringify([{
    client_id: 'stand-in-app', token_endpoint_auth_method: 'none', redirect_uris: ['https://app.example.se/callback'], scope: 'openid fhirUser launch/patient patient/*.rs',
  }]),
  SIGN_IN_KEYS_FILE: JSON.stringify({ keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'stand-in-key' }] }),
  SIGN_IN_COOKIE_KEYS_FILE: `${'k'.repeat(48)}\n`,
  SIGN_IN_LOGIN_CLIENT_SECRET_FILE: `${'r'.repeat(40)}\n`,
  // From a ConfigMap, not a Secret: the base's own file, which the start validates (issue 52 item 18).
  RELEASE_POLICY_FILE: readFileSync(path.join(REPOSITORY_ROOT, 'deploy', 'base', 'release-policy.json'), 'utf8'),
};
/** The sign-in's files (docs/sign-in.md#settings), each from the Secret of its own. */
const SIGN_IN_FILES = ['SIGN_IN_CLIENTS_FILE', 'SIGN_IN_KEYS_FILE', 'SIGN_IN_COOKIE_KEYS_FILE', 'SIGN_IN_LOGIN_CLIENT_SECRET_FILE'];
const SIGN_IN_SECRET = 'patient-data-access-sign-in';
/** Where each SIGN_IN_*_FILE of a container is: the Secret mounted at its folder, or a problem. */
function signInFileProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { where, pod } of podSpecs(objects.filter((o) => o.kind === 'Deployment'))) {
    const c = pod.containers[0];
    const env = new Map((c?.env ?? []).map((e) => [e.name, e]));
    for (const name of SIGN_IN_FILES) {
      const file = env.get(name)?.value;
      const mount = c?.volumeMounts?.find((m) => file?.startsWith(`${m.mountPath}/`));
      const secret = pod.volumes?.find((v) => v.name === mount?.name)?.secret as { secretName?: string; items?: Array<{ key: string; path: string }> } | undefined;
      const item = secret?.items?.find((i) => file === `${mount?.mountPath ?? ''}/${i.path}`);
      if (file === undefined || secret?.secretName !== SIGN_IN_SECRET || item === undefined) problems.push(`${where} ${name}: not a file of the Secret ${SIGN_IN_SECRET}`);
      const bare = name.replace(/_FILE$/, '');
      if (env.has(bare)) problems.push(`${where} ${bare}: an environment value, though the service reads ${name}`);
    }
  }
  for (const o of objects.filter((x) => x.kind === 'ConfigMap')) {
    for (const key of Object.keys((o.data as Record<string, string> | undefined) ?? {})) {
      if (SIGN_IN_FILES.some((f) => key === f || key === f.replace(/_FILE$/, ''))) problems.push(`ConfigMap/${o.metadata.name}: ${key} in the settings`);
    }
  }
  return problems;
}

describe.skipIf(skipWithout('kubectl', KUBECTL, KUBECTL_INSTALL))('issue 38 part 2: deploy/ rendered by kustomize', () => {
  describe.each(FOLDERS)('deploy/%s', (dir) => {
    it('renders every object the service needs', () => {
      const kinds = rendered(dir).map((o) => o.kind);
      expect(kinds).toEqual(expect.arrayContaining([
        'ServiceAccount', 'ConfigMap', 'Deployment', 'Service', 'PodDisruptionBudget', 'HorizontalPodAutoscaler', 'NetworkPolicy', 'Job', 'CronJob',
      ]));
    });

    it('validates every object against its schema, with no field the schema does not define', async () => {
      for (const object of rendered(dir)) {
        const result = await validateObject(object);
        expect(result, `${object.kind}/${object.metadata.name}`).toEqual({ errors: [], unknownFields: [] });
      }
    });

    it('runs as non-root on a read-only root, without privileges or a service account token', () => {
      expect(securityProblems(rendered(dir))).toEqual([]);
    });

    it('holds no secret: every secret-looking setting is a secretKeyRef or a file from a Secret', () => {
      expect(secretProblems(rendered(dir))).toEqual([]);
    });

    it('issue 44 item 10: gives every secret the service can read from a file (its _FILE setting) as a file from a Secret, not an environment value', () => {
      expect(secretProblems(rendered(dir), documentedSettings())).toEqual([]);
    });

    it('issue 46: gives the sign-in\'s clients file, signing keys, cookie keys and client secret as files of their own Secret, never as settings or environment values', () => {
      expect(signInFileProblems(rendered(dir))).toEqual([]);
    });

    it('probes /health/ready for readiness and /health/live for liveness and start-up', () => {
      expect(probeProblems(rendered(dir))).toEqual([]);
    });

    it('requests and limits cpu and memory for every container', () => {
      expect(resourceProblems(rendered(dir))).toEqual([]);
    });

    it('pauses before SIGTERM and gives the drain more time than SHUTDOWN_TIMEOUT_MS', () => {
      const objects = rendered(dir);
      expect(drainProblems(objects, Number(settings(objects).SHUTDOWN_TIMEOUT_MS ?? 10_000))).toEqual([]);
    });
  });

  it('sets only settings docs/ describes (docs/running.md#settings and the FHIR ones), and no demo-only one', () => {
    const documented = documentedSettings();
    expect(documented.size).toBeGreaterThan(30);
    for (const dir of FOLDERS) {
      const keys = Object.keys(settings(rendered(dir)));
      expect(keys.filter((k) => !documented.has(k)), dir).toEqual([]);
      expect(keys, dir).toEqual(expect.arrayContaining(['SIGN_IN_LOGIN_ISSUER', 'SIGN_IN_LOGIN_CLIENT_ID', 'EHR_BASE_URL', 'PUBLIC_BASE_URL', 'LOG_FORMAT']));
      // With the sign-in on, AUTH_ISSUER is the service's own, filled in from PUBLIC_BASE_URL.
      expect(keys, dir).not.toContain('AUTH_ISSUER');
      expect(keys.filter((k) => ['DEMO_AUTH_PORT', 'EHR_DATA_DIR', 'ALLOW_PLAIN_HTTP'].includes(k)), dir).toEqual([]);
    }
  });

  it('is a configuration the service accepts: the settings, the env, stand-ins for the Secrets', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pdas-manifest-config-'));
    try {
      for (const folder of FOLDERS) {
        const objects = rendered(folder);
        const container = podSpecs([one(objects, 'Deployment')])[0]?.pod.containers[0];
        const env: Record<string, string> = { ...settings(objects) };
        for (const e of container?.env ?? []) {
          if (e.valueFrom?.secretKeyRef !== undefined) env[e.name] = e.name.endsWith('_URL') ? `${e.name === 'REDIS_URL' ? 'redis' : 'postgres'}://stand-in.invalid/x` : 's'.repeat(40);
          else if (e.name.endsWith('_FILE')) {
            // A file mounted from a Secret: a stand-in with what the service reads from it.
            const file = path.join(dir, e.name);
            writeFileSync(file, STAND_INS[e.name] ?? 'stand-in');
            env[e.name] = file;
          } else if (e.value !== undefined) env[e.name] = e.name === 'DATA_DIR' ? dir : e.value;
        }
        const config = loadConfig(env);
        expect([config.host, config.port, config.metricsHost, config.metricsPort], folder).toEqual(['0.0.0.0', 8080, '0.0.0.0', 9464]);
        // Issue 44 item 10: the secrets every instance must share come from their files.
        expect([config.accessLogCursorSecret, config.fhirIdSecret, config.auditChainKeys?.signing.id], folder).toEqual(['c'.repeat(40), 'f'.repeat(40), 'stand-in']);
        expect([config.tls?.certFile, config.ehrTls?.keyFile], folder).toEqual([env.TLS_CERT_FILE, env.EHR_TLS_KEY_FILE]);
        // Issue 52 item 18: a production start names its release policy; the base's is read and in force.
        expect([config.releasePolicySource, Object.keys(config.releasePolicy ?? {}).length > 1], folder).toEqual([{ kind: 'file', file: env.RELEASE_POLICY_FILE }, true]);
        // Issue 46: the region's sign-in, its files read from the Secret's mount.
        expect(config.authIssuer, folder).toBe(`${env.PUBLIC_BASE_URL ?? ''}/auth`);
        expect([config.signIn?.login.issuer, config.signIn?.clients.map((c) => c.metadata.client_id), config.signIn?.signingKeys.map((k) => k.kid), config.signIn?.cookieKeys.length, config.signIn?.login.clientSecret], folder)
          .toEqual([env.SIGN_IN_LOGIN_ISSUER, ['stand-in-app'], ['stand-in-key'], 1, 'r'.repeat(40)]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('listens where the settings say, and the Service and NetworkPolicy use those ports by name', () => {
    const objects = rendered('base');
    const s = settings(objects);
    const pod = podSpecs([one(objects, 'Deployment')])[0]?.pod;
    const ports = Object.fromEntries((pod?.containers[0]?.ports ?? []).map((p) => [p.name, p.containerPort]));
    expect(ports).toEqual({ api: Number(s.PORT), metrics: Number(s.METRICS_PORT) });
    expect([s.HOST, s.METRICS_HOST]).toEqual(['0.0.0.0', '0.0.0.0']);
    const service = one(objects, 'Service').spec as { type: string; ports: Array<{ name: string; targetPort: string }> };
    expect(service.type).toBe('ClusterIP');
    expect(service.ports.map((p) => [p.name, p.targetPort])).toEqual([['api', 'api'], ['metrics', 'metrics']]);
  });

  it('runs three replicas spread over zones and nodes, one at a time away, scaled on CPU', () => {
    const objects = rendered('base');
    const deployment = one(objects, 'Deployment');
    const spec = deployment.spec as { replicas: number; selector: { matchLabels: Record<string, string> }; template: { spec: Record<string, unknown> } };
    expect(spec.replicas).toBe(3);
    const keys = (spec.template.spec.topologySpreadConstraints as Array<{ topologyKey: string }>).map((t) => t.topologyKey);
    expect(keys).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
    const pdb = one(objects, 'PodDisruptionBudget').spec as { maxUnavailable?: number; minAvailable?: number; selector: unknown };
    expect(pdb.maxUnavailable === 1 || pdb.minAvailable === 2).toBe(true);
    expect(pdb.selector).toEqual(spec.selector);
    const hpa = one(objects, 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    const hpaSpec = hpa.spec as { scaleTargetRef: { kind: string; name: string }; minReplicas: number; metrics: Array<{ resource?: { name: string } }> };
    expect(hpaSpec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: deployment.metadata.name });
    expect(hpaSpec.minReplicas).toBe(spec.replicas);
    expect(hpaSpec.metrics.map((m) => m.resource?.name)).toEqual(['cpu']);
    for (const selecting of [one(objects, 'Service').spec as { selector: unknown }]) expect(selecting.selector).toEqual(spec.selector.matchLabels);
  });

  it('keeps DATA_DIR and /tmp on emptyDir volumes, the only writable places', () => {
    const pod = podSpecs([one(rendered('base'), 'Deployment')])[0]?.pod;
    const container = pod?.containers[0];
    const dataDir = container?.env?.find((e) => e.name === 'DATA_DIR')?.value;
    const emptyDirs = new Set((pod?.volumes ?? []).filter((v) => 'emptyDir' in v).map((v) => v.name));
    const writable = (container?.volumeMounts ?? []).filter((m) => emptyDirs.has(m.name)).map((m) => m.mountPath).sort();
    expect(writable).toEqual([dataDir, '/tmp'].sort());
  });

  it('lets in only the ingress to the API port and monitoring to the metrics port; lets out only what is named', () => {
    const objects = rendered('base');
    const policy = one(objects, 'NetworkPolicy', 'patient-data-access').spec as {
      podSelector: { matchLabels: unknown }; policyTypes: string[];
      ingress: Array<{ from: Array<{ namespaceSelector?: { matchLabels: Record<string, string> } }>; ports: Array<{ port: string }> }>;
      egress: Array<{ to: Array<Record<string, unknown>>; ports: Array<{ port: number }> }>;
    };
    expect(policy.podSelector.matchLabels).toEqual((one(objects, 'Deployment').spec as { selector: { matchLabels: unknown } }).selector.matchLabels);
    expect(policy.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(policy.ingress.map((r) => [r.from.map((f) => f.namespaceSelector?.matchLabels['kubernetes.io/metadata.name']), r.ports.map((p) => p.port)]))
      .toEqual([[['ingress-nginx'], ['api']], [['monitoring'], ['metrics']]]);
    const egressPorts = policy.egress.map((r) => r.ports.map((p) => p.port));
    // DNS, the EHR, PostgreSQL, Redis, the issuer, the apps' notification receivers: nothing else.
    expect(egressPorts).toEqual([[53, 53], [443], [5432], [6379], [443], [443]]);
    for (const rule of policy.egress) expect(rule.to.length).toBeGreaterThan(0);
  });

  /** What `npm run <name>` runs, as the image has it: `dist/…js` of the command its script imports. */
  const compiledCommand = (name: string): string => {
    const scripts = (JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const script = /^tsx (scripts\/\S+\.ts)$/.exec(scripts[name] ?? '')?.[1];
    expect(script, `package.json has a ${name} script run by tsx`).toBeDefined();
    // scripts/<name>.ts only imports the command under src/, which tsc compiles into dist/.
    const command = /^import '\.\.\/src\/(\S+)\.js';$/m.exec(readFileSync(path.join(REPOSITORY_ROOT, script ?? ''), 'utf8'))?.[1];
    expect(command, `${script ?? 'the script'} imports its command from src/`).toBeDefined();
    return `dist/${command ?? ''}.js`;
  };

  it('issue 44 item 10: checks the audit chain nightly with `npm run audit -- --verify` as the image has it, one at a time, with the service\'s chain key', () => {
    const objects = rendered('base');
    const cron = one(objects, 'CronJob');
    expect((cron.spec as { concurrencyPolicy: string }).concurrencyPolicy).toBe('Forbid');
    const pod = podSpecs([cron])[0]?.pod;
    const check = pod?.containers[0];
    expect((check as unknown as { command: string[] }).command.slice(0, 3)).toEqual(['node', compiledCommand('audit'), '--verify']);
    const service = podSpecs([one(objects, 'Deployment')])[0]?.pod;
    const keyOf = (p: typeof pod, file: string | undefined) => {
      const mount = p?.containers[0]?.volumeMounts?.find((m) => file?.startsWith(`${m.mountPath}/`));
      return (p?.volumes?.find((v) => v.name === mount?.name)?.secret as { secretName?: string } | undefined)?.secretName;
    };
    const fileOf = (p: typeof pod) => p?.containers[0]?.env?.find((e) => e.name === 'AUDIT_CHAIN_KEY_FILE')?.value;
    expect(keyOf(pod, fileOf(pod))).toBe('patient-data-access-audit-chain-key');
    expect(keyOf(pod, fileOf(pod))).toBe(keyOf(service, fileOf(service)));
    // Its pods reach DNS and PostgreSQL only, as the migration's do.
    const policy = one(objects, 'NetworkPolicy', 'patient-data-access-database-jobs').spec as {
      podSelector: { matchExpressions: Array<{ values: string[] }> }; egress: Array<{ ports: Array<{ port: number }> }>;
    };
    expect(policy.podSelector.matchExpressions[0]?.values).toEqual(['migration', 'audit-verify']);
    expect(policy.egress.map((r) => r.ports.map((p) => p.port))).toEqual([[53, 53], [5432]]);
  });

  it.each(FOLDERS)('issue 52 item 10: deploy/%s checks the chain nightly against the signed heads an init container exports from the log', (dir) => {
    const pod = podSpecs([one(rendered(dir), 'CronJob')])[0]?.pod;
    const command = (pod?.containers[0] as unknown as { command: string[] } | undefined)?.command ?? [];
    const heads = command.slice(3).flatMap((arg, i, args) => (args[i - 1] === '--head' ? [arg] : []));
    // Before: `--verify` alone, so a trail written anew unkeyed, or cut back, passed every night.
    expect(heads, 'the check is given --head <file>').toHaveLength(1);
    const volumeOf = (c: { volumeMounts?: Array<{ name: string; mountPath: string }> } | undefined) =>
      c?.volumeMounts?.find((m) => heads[0]?.startsWith(`${m.mountPath}/`))?.name;
    const volume = volumeOf(pod?.containers[0]);
    expect((pod?.volumes?.find((v) => v.name === volume) as { emptyDir?: unknown } | undefined)?.emptyDir, 'the heads file is in an emptyDir').toBeDefined();
    // Something that runs before the check writes that volume: the init container that exports the heads.
    const exporters = (pod?.initContainers ?? []).filter((c) => c.volumeMounts?.some((m) => m.name === volume && (m as { readOnly?: boolean }).readOnly !== true));
    expect(exporters.map((c) => c.name)).toEqual(['export-audit-heads']);
  });

  it('migrates with the command `npm run migrate` runs, compiled as the image has it, as the database owner, from a Secret of its own', () => {
    const objects = rendered('base');
    const job = podSpecs([one(objects, 'Job')])[0]?.pod.containers[0];
    expect((job as unknown as { command: string[] }).command.slice(0, 2)).toEqual(['node', compiledCommand('migrate')]);
    const ownerRef = job?.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
    const serviceRef = podSpecs([one(objects, 'Deployment')])[0]?.pod.containers[0]?.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef;
    expect(ownerRef?.name).toBeDefined();
    expect(ownerRef?.name).not.toBe(serviceRef?.name);
  });

  it('issue 46: migrates the sign-in schema the service uses (SIGN_IN_SCHEMA)', () => {
    const objects = rendered('base');
    const command = (podSpecs([one(objects, 'Job')])[0]?.pod.containers[0] as unknown as { command: string[] }).command;
    const at = command.indexOf('--sign-in-schema');
    expect(at).toBeGreaterThan(1);
    expect(command[at + 1]).toBe(settings(objects).SIGN_IN_SCHEMA ?? 'sign_in');
  });

  describe.each(OVERLAYS)('deploy/%s', (dir) => {
    /** Made by cert-manager or the region as kubernetes.io/tls Secrets (docs/operations.md#kubernetes), not by the ExternalSecrets. */
    const TLS_SECRETS = new Set(['patient-data-access-tls', 'patient-data-access-ehr-tls']);

    it('makes every secret the pods refer to with an ExternalSecret', () => {
      const objects = rendered(dir);
      const made = new Set(objects.filter((o) => o.kind === 'ExternalSecret').flatMap((o) => {
        const spec = o.spec as { target: { name: string }; data: Array<{ secretKey: string }> };
        return spec.data.map((d) => `${spec.target.name}/${d.secretKey}`);
      }));
      const needed = podSpecs(objects).flatMap(({ pod }) => [
        ...pod.containers.flatMap((c) => (c.env ?? []).flatMap((e) => (e.valueFrom?.secretKeyRef ? [`${e.valueFrom.secretKeyRef.name}/${e.valueFrom.secretKeyRef.key}`] : []))),
        ...(pod.volumes ?? []).flatMap((v) => {
          const secret = v.secret as { secretName: string; items?: Array<{ key: string }> } | undefined;
          if (secret === undefined || TLS_SECRETS.has(secret.secretName)) return [];
          return (secret.items ?? []).map((i) => `${secret.secretName}/${i.key}`);
        }),
      ]);
      expect(needed.length).toBeGreaterThan(4);
      expect(needed.filter((n) => !made.has(n))).toEqual([]);
    });

    it('deploys a pinned image from a registry, in a namespace, at its own address', () => {
      const objects = rendered(dir);
      const images = podSpecs(objects).flatMap(({ pod }) => pod.containers.map((c) => (c as unknown as { image: string }).image));
      for (const image of images) expect(image).toMatch(/^[a-z0-9.-]+\.[a-z]+\/[a-z0-9/._-]*patient-data-access(:(?!latest$)[\w.-]+|@sha256:[0-9a-f]{64})$/);
      for (const o of objects) expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toMatch(/^patient-data-access/);
      expect(settings(objects).PUBLIC_BASE_URL).not.toBe(settings(rendered('base')).PUBLIC_BASE_URL);
    });
  });

  describe('the checks find what they are for', () => {
    const deployment = (): K8sObject => clone(one(rendered('base'), 'Deployment'));
    const container = (d: K8sObject): Record<string, unknown> & { env: Array<Record<string, unknown>> } =>
      (d.spec as { template: { spec: { containers: Array<Record<string, unknown> & { env: Array<Record<string, unknown>> }> } } }).template.spec.containers[0] as never;

    it('a misspelt field and a wrong type', async () => {
      const d = deployment();
      const c = container(d);
      (c.readinessProbe as Record<string, unknown>).periodSecond = 5;
      (c.securityContext as Record<string, unknown>).readOnlyRootFileSystem = true;
      (d.spec as Record<string, unknown>).replicas = 'three';
      const result = await validateObject(d);
      expect(result.unknownFields).toEqual([
        '.spec.template.spec.containers[0].readinessProbe.periodSecond',
        '.spec.template.spec.containers[0].securityContext.readOnlyRootFileSystem',
      ]);
      expect(result.errors.join()).toMatch(/replicas must be integer/);
    });

    it('a literal secret, a secret file outside a Secret, a writable root, a wrong probe path, no limits', () => {
      const d = deployment();
      const c = container(d);
      c.env.push({ name: 'DATABASE_URL', value: 'postgres://u:p@db/pdas' }, { name: 'SUBSCRIPTION_KEYS_FILE', value: '/var/lib/pdas/keys' });
      (c.securityContext as Record<string, unknown>).readOnlyRootFilesystem = false;
      (c.readinessProbe as { httpGet: { path: string } }).httpGet.path = '/health/live';
      delete (c.resources as { limits?: unknown }).limits;
      expect(secretProblems([d])).toEqual([
        'Deployment/patient-data-access container patient-data-access env DATABASE_URL: a literal value',
        'Deployment/patient-data-access container patient-data-access env SUBSCRIPTION_KEYS_FILE: not a file in a volume mounted from a Secret',
      ]);
      expect(securityProblems([d])).toEqual(['Deployment/patient-data-access container patient-data-access: readOnlyRootFilesystem is not true']);
      expect(probeProblems([d])).toEqual(['Deployment/patient-data-access container patient-data-access: readinessProbe is not an httpGet of /health/ready']);
      expect(resourceProblems([d])).toHaveLength(2);
      expect(secretProblems([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { REDIS_URL: 'redis://:p@r' } }])).toHaveLength(1);
    });

    it('issue 44 item 10: a secret in the environment that the service could read from a file', () => {
      const d = deployment();
      container(d).env.push({ name: 'FHIR_ID_SECRET', valueFrom: { secretKeyRef: { name: 'patient-data-access-secrets', key: 'fhir-id-secret' } } });
      expect(secretProblems([d])).toEqual([]);
      expect(secretProblems([d], documentedSettings())).toEqual([
        'Deployment/patient-data-access container patient-data-access env FHIR_ID_SECRET: an environment value, though the service reads FHIR_ID_SECRET_FILE: mount it as a file from the Secret',
      ]);
    });

    it('issue 46: a sign-in key as an environment value, a sign-in file outside its Secret, a sign-in file in the settings', () => {
      const d = deployment();
      const c = container(d);
      c.env.push({ name: 'SIGN_IN_LOGIN_CLIENT_SECRET', valueFrom: { secretKeyRef: { name: SIGN_IN_SECRET, key: 'login-client-secret' } } });
      (c.env.find((e) => e.name === 'SIGN_IN_KEYS_FILE') as { value: string }).value = '/etc/pdas/secrets/signing-keys.json';
      const map: K8sObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { SIGN_IN_COOKIE_KEYS_FILE: '/data/cookie-keys' } };
      expect(signInFileProblems([d, map])).toEqual([
        'Deployment/patient-data-access SIGN_IN_KEYS_FILE: not a file of the Secret patient-data-access-sign-in',
        'Deployment/patient-data-access SIGN_IN_LOGIN_CLIENT_SECRET: an environment value, though the service reads SIGN_IN_LOGIN_CLIENT_SECRET_FILE',
        'ConfigMap/settings: SIGN_IN_COOKIE_KEYS_FILE in the settings',
      ]);
    });

    it('a grace period shorter than the pause and the drain', () => {
      const d = deployment();
      (d.spec as { template: { spec: { terminationGracePeriodSeconds: number } } }).template.spec.terminationGracePeriodSeconds = 20;
      expect(drainProblems([d], 10_000)).toHaveLength(1);
    });
  });
});
