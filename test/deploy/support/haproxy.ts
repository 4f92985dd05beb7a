/**
 * HAProxy (Debian's `haproxy`) in front of the instances, on loopback, as a region's load balancer
 * would be set: traffic only to servers whose /health/ready answers 200, and a connection refused by
 * a draining instance retried on another server. Nothing else is retried: a request an instance took
 * and did not answer is a failure the test must see.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { run } from './podman.js';

export interface Backend { name: string; port: number }
export interface ServerStats {
  status: string; answered2xx: number; answered4xx: number; answered5xx: number;
  /** Requests HAProxy sent again after a refused connection, and those it sent to another server then. */
  retries: number; redispatches: number;
}

export function haproxyConfig(port: number, statsPort: number, backends: readonly Backend[]): string {
  return `global
  maxconn 1024

defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  timeout http-keep-alive 10s
  # A refused connection (an instance that has closed its listener on SIGTERM) goes to another server.
  retries 3
  option redispatch 1
  retry-on conn-failure
  # One connection to an instance per request: an idle pooled connection the instance closes while
  # draining can never meet a request halfway. Callers keep their connections to HAProxy.
  option http-server-close

frontend api
  bind 127.0.0.1:${port}
  default_backend instances

backend instances
  balance roundrobin
  # Which instance answered, for a test that follows one flow across them (the service names none).
  http-response set-header X-Served-By %[srv_name]
  option httpchk GET /health/ready
  http-check expect status 200
  default-server inter 500ms fall 2 rise 2
${backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`).join('\n')}

listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

export class Haproxy {
  private readonly exited: Promise<unknown>;
  private constructor(private readonly child: ChildProcess, readonly origin: string, private readonly statsOrigin: string, readonly output: string[]) {
    this.exited = new Promise((resolve) => child.once('exit', resolve));
  }

  /** Checks the configuration, then runs haproxy in the foreground (-db) as a child of the test. */
  static async start(dir: string, port: number, statsPort: number, backends: readonly Backend[]): Promise<Haproxy> {
    const file = path.join(dir, 'haproxy.cfg');
    await writeFile(file, haproxyConfig(port, statsPort, backends));
    const check = await run('haproxy', ['-c', '-q', '-f', file]);
    if (check.code !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}${check.stdout}`);
    const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
    return new Haproxy(child, `http://127.0.0.1:${port}`, `http://127.0.0.1:${statsPort}`, output);
  }

  /** Each server as HAProxy sees it, from its CSV statistics: state (UP, DOWN, UP 1/2 ...) and answers by class. */
  async servers(): Promise<Map<string, ServerStats>> {
    const csv = await (await fetch(`${this.statsOrigin}/stats;csv`, { signal: AbortSignal.timeout(2000) })).text();
    const [head = '', ...rows] = csv.replace(/^# /, '').trim().split('\n');
    const columns = head.split(',');
    const servers = new Map<string, ServerStats>();
    for (const row of rows.map((r) => r.split(','))) {
      const field = (name: string): string => row[columns.indexOf(name)] ?? '';
      if (field('pxname') !== 'instances' || ['FRONTEND', 'BACKEND'].includes(field('svname'))) continue;
      servers.set(field('svname'), {
        status: field('status'), answered2xx: Number(field('hrsp_2xx')), answered4xx: Number(field('hrsp_4xx')), answered5xx: Number(field('hrsp_5xx')),
        retries: Number(field('wretr')), redispatches: Number(field('wredis')),
      });
    }
    return servers;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
  }
}
