/**
 * `npm run fhir-sim` as a developer starts it (the script in a process of its own): by default it
 * serves the demo people generated for now, tells the base URL and the settings the service needs
 * for them, and stops on SIGTERM.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_FHIR_SETTINGS } from '../../src/dev/demo-data/fhir/bundle.js';
import { DEMO_PEOPLE } from '../../src/dev/demo-data/people.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('npm run fhir-sim', () => {
  it('serves the demo people by default, on loopback, and names the settings for them', async () => {
    // node itself with tsx's loader, not npx: a signal to npx does not reach the server it started.
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fhir-sim.ts'], { cwd: ROOT, env: { ...process.env, FHIR_SIM_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const started = await new Promise<{ baseUrl: string; settings: Record<string, string> }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('fhir-sim did not start within 30 s')), 30_000);
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const line = out.split('\n').find((l) => l.includes('"baseUrl"'));
          if (line !== undefined) {
            clearTimeout(timer);
            resolve(JSON.parse(line) as { baseUrl: string; settings: Record<string, string> });
          }
        });
        child.once('exit', (code) => reject(new Error(`fhir-sim exited with ${String(code)}`)));
      });
      expect(started.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/fhir$/);
      expect(started.settings).toEqual({ FHIR_ID_ROOT: DEMO_FHIR_SETTINGS.idRoot, FHIR_VIDEO_ACTION_ID_SYSTEM: DEMO_FHIR_SETTINGS.videoActionIdSystem });
      const bundle = await (await fetch(`${started.baseUrl}/Patient?_count=50`)).json() as { entry: { resource: { identifier: { value: string }[] } }[] };
      expect(bundle.entry.map((e) => e.resource.identifier[0]?.value).sort()).toEqual(DEMO_PEOPLE.map((p) => p.id).sort());
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  }, 45_000);
});
