import { spawn } from 'node:child_process';

export interface ServiceRun { code: number | null; stdout: string; stderr: string }

/**
 * Runs the real service (`node src/server.ts`, as `npm start` runs it) on loopback with every port
 * 0 unless `env` says otherwise, until it ends by itself or `stopWhen(stdout)` holds (then SIGTERM).
 * Bounded: a service still running after 60 s is killed and the promise rejects.
 */
export function runService(env: Record<string, string>, dataDir: string, stopWhen: (stdout: string) => boolean = () => false): Promise<ServiceRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', DEMO_AUTH_PORT: '0', DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the service was still running after 60 s: ${stdout}${stderr}`));
    }, 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stopWhen(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('exit', (code) => {
      clearTimeout(timer);
      // Let the pipes drain.
      setImmediate(() => resolve({ code, stdout, stderr }));
    });
  });
}
