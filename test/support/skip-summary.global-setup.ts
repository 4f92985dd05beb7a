/**
 * The last line of `npm test`: what was skipped and why (requirements.ts), or that nothing was. Each
 * worker notes its skips in a folder made here (its path passed on in the environment the workers
 * inherit); the teardown, which runs once every file has finished and the reporters have printed
 * their summary, reads them and prints one line, where it cannot be lost among the tests' output.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SKIP_NOTES_VARIABLE, type SkipNote } from './requirements.js';

/** The summary line for `notes`. */
export function skipSummary(notes: readonly SkipNote[]): string {
  if (notes.length === 0) return 'skipped: nothing for want of PostgreSQL, Redis, Chromium, kubectl, promtool or openssl';
  const byReason = new Map<string, Set<string>>();
  for (const note of notes) {
    const key = `${note.needs}: ${note.why}`;
    byReason.set(key, (byReason.get(key) ?? new Set()).add(note.file));
  }
  const files = new Set(notes.map((n) => n.file)).size;
  const reasons = [...byReason].sort(([a], [b]) => a.localeCompare(b)).map(([reason, inFiles]) => `${reason} (${inFiles.size} file${inFiles.size === 1 ? '' : 's'})`);
  return `skipped: tests in ${files} file${files === 1 ? '' : 's'} for want of ${reasons.join('; ')}. With CI=true they fail instead.`;
}

export function readNotes(dir: string): SkipNote[] {
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(path.join(dir, f), 'utf8').split('\n')
    .filter((line) => line !== '').map((line) => JSON.parse(line) as SkipNote));
}

export default function setup(): () => void {
  // Each vitest project runs the global set-up: the first makes the folder and prints the line, once.
  if (process.env[SKIP_NOTES_VARIABLE] !== undefined) return () => undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'pdas-skips-'));
  process.env[SKIP_NOTES_VARIABLE] = dir;
  return () => {
    const notes = readNotes(dir);
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`\n${skipSummary(notes)}\n`);
  };
}
