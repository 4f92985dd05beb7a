/**
 * Instances of the image as a region runs them: host networking on loopback (each its own PORT and
 * METRICS_PORT), a read-only root with /tmp in memory, a DATA_DIR volume of its own, production
 * settings. Settings holding a secret reach podman through its environment (`-e NAME`), never its
 * command line; those the service reads from a file (`*_FILE`) are podman secrets mounted into each
 * container, as Kubernetes mounts a Secret. Every container and volume carries the run's label, and
 * every secret the run's name, so cleanup removes exactly those.
 */
import { LIMITS, podman, podmanOk, withoutSystemdNoise } from './podman.js';

export interface Instance { name: string; port: number; metricsPort: number; volume: string }

export class Instances {
  readonly list: Instance[];
  private readonly label: string;

  private readonly secretNames: Map<string, string>;

  /**
   * `settings` for every instance (no secrets), `secrets` passed by name, `files` (a `*_FILE` setting
   * and the host file holding its secret) mounted from podman secrets made once for the run.
   */
  constructor(private readonly image: string, private readonly runId: string, ports: ReadonlyArray<[number, number]>,
    private readonly settings: Record<string, string>, private readonly secrets: Record<string, string>, private readonly files: Record<string, string> = {}) {
    this.label = `pdas-deploy=${runId}`;
    this.list = ports.map(([port, metricsPort], i) => ({ name: `pdas-deploy-${runId}-${i + 1}`, port, metricsPort, volume: `pdas-deploy-${runId}-${i + 1}` }));
    this.secretNames = new Map(Object.keys(files).map((setting) => [setting, `pdas-deploy-${runId}-${setting.toLowerCase().replaceAll('_', '-')}`]));
  }

  /** The podman secrets of `files`, readable by the image's user only, as a Secret mounted with defaultMode 0440 for its group. */
  async createSecrets(): Promise<void> {
    for (const [setting, file] of Object.entries(this.files)) await podmanOk(['secret', 'create', this.secretNames.get(setting) as string, file]);
  }

  async create(instance: Instance): Promise<void> {
    await podmanOk(['volume', 'create', '--label', this.label, instance.volume]);
    const env = { ...this.settings, PORT: String(instance.port), METRICS_PORT: String(instance.metricsPort), HOST: '127.0.0.1', METRICS_HOST: '127.0.0.1' };
    // A read-only root has no /run/secrets to mount them on: a tmpfs there gives them one, as a pod's volume does.
    const mounted = this.secretNames.size === 0 ? [] : ['--tmpfs', '/run/secrets:size=64k,mode=0755'];
    mounted.push(...[...this.secretNames].flatMap(([setting, secret]) => [
      '--secret', `${secret},type=mount,uid=10001,gid=10001,mode=0440`, '--env', `${setting}=/run/secrets/${secret}`,
    ]));
    await podmanOk([
      'run', '--detach', '--name', instance.name, '--label', this.label, ...LIMITS, '--network', 'host',
      '--read-only', '--tmpfs', '/tmp', '--volume', `${instance.volume}:/data`,
      ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      ...Object.keys(this.secrets).flatMap((k) => ['--env', k]),
      ...mounted,
      this.image,
    ], 60_000, this.secrets);
  }

  /** `podman stop -t 30` (SIGTERM, the image's STOPSIGNAL; SIGKILL after 30 s): how long it took and the exit code. */
  async stop(instance: Instance): Promise<{ ms: number; exitCode: number }> {
    const started = Date.now();
    await podmanOk(['stop', '--time', '30', instance.name], 60_000);
    const ms = Date.now() - started;
    const exitCode = Number((await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', instance.name])).trim());
    return { ms, exitCode };
  }

  async start(instance: Instance): Promise<void> {
    await podmanOk(['start', instance.name]);
  }

  /** Polls the instance's own /health/ready until 200, at most `timeoutMs`; the last answer says which check was down. */
  async ready(instance: Instance, timeoutMs = 60_000): Promise<{ ready: boolean; last: string }> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer';
    while (Date.now() < deadline) {
      const status = await fetch(`http://127.0.0.1:${instance.port}/health/ready`, { signal: AbortSignal.timeout(2000) }).then(async (r) => {
        last = `${r.status} ${(await r.text()).slice(0, 300)}`;
        return r.status;
      }, (err: unknown) => {
        last = err instanceof Error ? err.message : String(err);
        return 0;
      });
      if (status === 200) return { ready: true, last };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return { ready: false, last };
  }

  /** The image's HEALTHCHECK, run once now inside the container: its exit code. */
  async healthcheck(instance: Instance): Promise<number> {
    return (await podman(['healthcheck', 'run', instance.name], 30_000)).code;
  }

  /** Its last log lines but those of the readiness polls, its state, and its last readiness answer: what a failure report needs. */
  async report(instance: Instance): Promise<string> {
    const lines = (await this.logs(instance)).split('\n').filter((l) => l !== '' && !l.includes('"path":"/health/'));
    const state = (await podman(['inspect', '--format', '{{.State.Status}} (exit {{.State.ExitCode}})', instance.name])).stdout.trim();
    const readiness = (await this.ready(instance, 1000)).last;
    return `${instance.name}, ${state}, /health/ready: ${readiness}\n${lines.slice(-30).join('\n')}`;
  }

  /** What the running instance has in its DATA_DIR (/data), top level. */
  async dataDirEntries(instance: Instance): Promise<string[]> {
    const listed = await podmanOk(['exec', instance.name, 'node', '-e', "console.log(JSON.stringify(require('node:fs').readdirSync(process.env.DATA_DIR)))"]);
    return JSON.parse(listed.trim()) as string[];
  }

  /** Everything the container wrote to stdout and stderr, over all its starts. */
  async logs(instance: Instance): Promise<string> {
    const result = await podman(['logs', instance.name], 30_000);
    return `${result.stdout}${withoutSystemdNoise(result.stderr)}`;
  }

  /** Removes the run's containers (at once, without a drain), volumes and secrets; what is already gone is fine. */
  async removeAll(): Promise<void> {
    const ids = (await podman(['ps', '--all', '--quiet', '--filter', `label=${this.label}`])).stdout.split('\n').filter(Boolean);
    if (ids.length > 0) await podman(['rm', '--force', '--time', '0', ...ids], 60_000);
    const volumes = (await podman(['volume', 'ls', '--quiet', '--filter', `label=${this.label}`])).stdout.split('\n').filter(Boolean);
    if (volumes.length > 0) await podman(['volume', 'rm', '--force', ...volumes], 60_000);
    const secrets = (await podman(['secret', 'ls', '--format', '{{.Name}}'])).stdout.split('\n').filter((name) => name.startsWith(`pdas-deploy-${this.runId}-`));
    if (secrets.length > 0) await podman(['secret', 'rm', ...secrets], 60_000);
  }
}
