// The repository's own scripts as test:deploy runs them (scripts/container-base.sh, scripts/build-image.sh).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs a script of the repository, its output shown as it comes; resolves its last line of stdout. */
export function script(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn('bash', [path.join(ROOT, file)], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let last = '';
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(d);
      const lines = d.toString().trim().split('\n');
      last = lines[lines.length - 1] ?? last;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      process.stdout.write(`test:deploy: ${file} took ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      if (code === 0) resolve(last.trim());
      else reject(new Error(`${file} failed with exit code ${String(code)} (its output is above)`));
    });
  });
}
