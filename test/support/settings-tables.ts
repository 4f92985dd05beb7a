import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { proseLines } from './markdown-anchors.js';
import { REPOSITORY_ROOT } from './upstream-examples.js';

export interface SettingRow {
  name: string;
  /** `docs/<file>.md:<line>` */
  where: string;
}

/**
 * Every setting docs/ describes: each name in backquotes in the first column of a table headed
 * `| setting |` (docs/running.md#settings, docs/fhir-api.md#settings, docs/upstream-fhir.md#settings, docs/proxies.md#for-a-region).
 */
export function settingRows(): SettingRow[] {
  const rows: SettingRow[] = [];
  for (const file of readdirSync(path.join(REPOSITORY_ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort()) {
    let inTable = false;
    for (const [line, text] of proseLines(readFileSync(path.join(REPOSITORY_ROOT, 'docs', file), 'utf8'))) {
      if (/^\|\s*setting\s*\|/.test(text)) {
        inTable = true;
        continue;
      }
      if (!text.startsWith('|')) inTable = false;
      if (!inTable || /^\|[-\s|]+$/.test(text)) continue;
      for (const m of (text.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)) rows.push({ name: m[1] as string, where: `docs/${file}:${line}` });
    }
  }
  return rows;
}

export const documentedSettings = (): Set<string> => new Set(settingRows().map((r) => r.name));

/**
 * The environment names src/start/config.ts reads, itself and through the settings modules it imports
 * (src/start/*.ts, src/tracing/tracing-settings.ts): every quoted name in capitals and every `env.NAME`.
 */
export function configReads(): string[] {
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/'([A-Z][A-Z0-9_]{2,})'|\benv\.([A-Z][A-Z0-9_]+)/g)) names.add((m[1] ?? m[2]) as string);
    for (const m of text.matchAll(/from '(\.[^']+)\.js'/g)) {
      const next = path.resolve(path.dirname(file), `${m[1] as string}.ts`);
      if (next.includes(`${path.sep}src${path.sep}start${path.sep}`) || next.endsWith('-settings.ts')) visit(next);
    }
  };
  visit(path.join(REPOSITORY_ROOT, 'src', 'start', 'config.ts'));
  return [...names].sort();
}
