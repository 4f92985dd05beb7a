/**
 * The rules the rendered manifests keep beyond the schemas (CONTRACT section 9, docs/operations.md#kubernetes):
 * pods run as a non-root user on a read-only root with no privileges, secrets are referred to and
 * never written, both health paths are probed, every container is sized, and the drain fits in the
 * grace period. Each check returns what is wrong, so a test can also show it finds a breach.
 */
import type { K8sObject } from './tools.js';

type Json = Record<string, unknown>;

interface EnvVar { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: unknown } }
interface Container {
  name: string;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  resources?: { requests?: Json; limits?: Json };
  securityContext?: Json & { capabilities?: { drop?: string[] }; seccompProfile?: { type?: string } };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  ports?: Array<{ name?: string; containerPort: number }>;
  volumeMounts?: Array<{ name: string; mountPath: string }>;
  lifecycle?: { preStop?: { sleep?: { seconds: number }; exec?: unknown } };
}
interface Probe { httpGet?: { path?: string; port?: number | string } }
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: Json & { seccompProfile?: { type?: string } };
  automountServiceAccountToken?: boolean;
  terminationGracePeriodSeconds?: number;
  volumes?: Array<{ name: string; secret?: unknown; projected?: { sources?: Array<{ secret?: unknown }> } }>;
}

/** A setting whose value is a secret: only ever from a Secret (CONTRACT section 9). */
export const SECRET_NAME = /KEY|SECRET|PASSWORD|TOKEN|DATABASE_URL|REDIS_URL/;
/** Settings whose names match SECRET_NAME but hold an address or a count, not a secret (docs/contract.md#settings). */
const NOT_SECRETS = new Set(['SMART_TOKEN_ENDPOINT', 'FHIR_TOKEN_URL', 'RATE_LIMIT_NO_KEY_MAX']);

/** The pod specs of the workloads, a CronJob's among them, with where they are. */
export function podSpecs(objects: K8sObject[]): Array<{ where: string; pod: PodSpec }> {
  return objects.flatMap((o) => {
    const spec = o.spec as { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } } | undefined;
    const template = spec?.template ?? spec?.jobTemplate?.spec?.template;
    return template?.spec === undefined ? [] : [{ where: `${o.kind}/${o.metadata.name}`, pod: template.spec }];
  });
}

const containersOf = (pod: PodSpec): Container[] => [...(pod.initContainers ?? []), ...pod.containers];

/** Non-root, read-only root, no privilege escalation, every capability dropped, the runtime's seccomp profile. */
export function securityProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { where, pod } of podSpecs(objects)) {
    if (pod.automountServiceAccountToken !== false) problems.push(`${where}: automountServiceAccountToken is not false`);
    for (const c of containersOf(pod)) {
      const at = `${where} container ${c.name}`;
      const sc = c.securityContext ?? {};
      if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true) problems.push(`${at}: runAsNonRoot is not true`);
      const user = sc.runAsUser ?? pod.securityContext?.runAsUser;
      if (typeof user !== 'number' || user === 0) problems.push(`${at}: runAsUser is not a non-zero number`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${at}: readOnlyRootFilesystem is not true`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation is not false`);
      if (sc.privileged === true) problems.push(`${at}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${at}: capabilities do not drop ALL`);
      if ((sc.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type) !== 'RuntimeDefault') problems.push(`${at}: seccompProfile is not RuntimeDefault`);
    }
  }
  return problems;
}

/** Mount paths of the volumes that come from a Secret, per container. */
function secretMounts(pod: PodSpec, c: Container): string[] {
  const fromSecret = new Set((pod.volumes ?? [])
    .filter((v) => v.secret !== undefined || (v.projected?.sources ?? []).some((s) => s.secret !== undefined)).map((v) => v.name));
  return (c.volumeMounts ?? []).filter((m) => fromSecret.has(m.name)).map((m) => m.mountPath.replace(/\/$/, ''));
}

/**
 * A secret-looking setting is a `secretKeyRef`, or, for `*_FILE`, a path inside a volume mounted from
 * a Secret; never a literal. One the service can also read from a file (its `<NAME>_FILE` among
 * `readFromFiles`, the settings docs/ describes) is that file, not an environment value. A ConfigMap
 * holds no secret-looking key, and no manifest is a Secret.
 */
export function secretProblems(objects: K8sObject[], readFromFiles: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    if (o.kind === 'Secret') problems.push(`Secret/${o.metadata.name}: a Secret in the manifests (secrets come from the region's store)`);
    if (o.kind === 'ConfigMap') {
      for (const key of Object.keys((o.data as Json | undefined) ?? {})) {
        if (SECRET_NAME.test(key) && !NOT_SECRETS.has(key)) problems.push(`ConfigMap/${o.metadata.name}: ${key} looks secret`);
      }
    }
  }
  for (const { where, pod } of podSpecs(objects)) {
    for (const c of containersOf(pod)) {
      const mounts = secretMounts(pod, c);
      for (const e of c.env ?? []) {
        if (!SECRET_NAME.test(e.name) || NOT_SECRETS.has(e.name)) continue;
        const at = `${where} container ${c.name} env ${e.name}`;
        if (e.name.endsWith('_FILE')) {
          if (e.value === undefined || !mounts.some((m) => e.value?.startsWith(`${m}/`))) problems.push(`${at}: not a file in a volume mounted from a Secret`);
        } else if (e.value !== undefined || e.valueFrom?.secretKeyRef === undefined) {
          problems.push(`${at}: ${e.value === undefined ? 'not a secretKeyRef' : 'a literal value'}`);
        } else if (readFromFiles.has(`${e.name}_FILE`)) {
          problems.push(`${at}: an environment value, though the service reads ${e.name}_FILE: mount it as a file from the Secret`);
        }
      }
    }
  }
  return problems;
}

/** Readiness on /health/ready, liveness and start-up on /health/live, each on a named container port. */
export function probeProblems(objects: K8sObject[], kinds = ['Deployment']): string[] {
  const problems: string[] = [];
  for (const { where, pod } of podSpecs(objects.filter((o) => kinds.includes(o.kind)))) {
    for (const c of pod.containers) {
      const at = `${where} container ${c.name}`;
      const ports = new Set((c.ports ?? []).flatMap((p) => [p.name, p.containerPort]));
      const expect = (probe: Probe | undefined, name: string, path: string): void => {
        if (probe?.httpGet?.path !== path) problems.push(`${at}: ${name} is not an httpGet of ${path}`);
        else if (!ports.has(probe.httpGet.port)) problems.push(`${at}: ${name} probes a port the container does not declare`);
      };
      expect(c.readinessProbe, 'readinessProbe', '/health/ready');
      expect(c.livenessProbe, 'livenessProbe', '/health/live');
      expect(c.startupProbe, 'startupProbe', '/health/live');
    }
  }
  return problems;
}

/** cpu and memory requested and limited in every container. */
export function resourceProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { where, pod } of podSpecs(objects)) {
    for (const c of containersOf(pod)) {
      for (const kind of ['requests', 'limits'] as const) {
        for (const resource of ['cpu', 'memory']) {
          if (c.resources?.[kind]?.[resource] === undefined) problems.push(`${where} container ${c.name}: no ${resource} ${kind}`);
        }
      }
    }
  }
  return problems;
}

/**
 * The kubelet's SIGKILL comes terminationGracePeriodSeconds after the preStop hook starts: the pause,
 * then SHUTDOWN_TIMEOUT_MS of drain, then the audit flush must fit, with `marginS` to spare.
 */
export function drainProblems(objects: K8sObject[], shutdownTimeoutMs: number, marginS = 10): string[] {
  const problems: string[] = [];
  for (const { where, pod } of podSpecs(objects.filter((o) => o.kind === 'Deployment'))) {
    for (const c of pod.containers) {
      const pause = c.lifecycle?.preStop?.sleep?.seconds;
      if (pause === undefined || pause < 5) problems.push(`${where} container ${c.name}: no preStop pause of 5 s or more`);
      const needed = (pause ?? 0) + shutdownTimeoutMs / 1000 + marginS;
      const grace = pod.terminationGracePeriodSeconds ?? 30;
      if (grace < needed) problems.push(`${where}: terminationGracePeriodSeconds ${grace} < preStop ${pause ?? 0} s + drain ${shutdownTimeoutMs / 1000} s + ${marginS} s`);
    }
  }
  return problems;
}
