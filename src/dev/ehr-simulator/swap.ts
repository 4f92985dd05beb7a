/** For `swapPatient`: the same request about another patient (or actor) of the data folder, as a confused EHR would answer it. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SimRequest } from './ehr-interface.js';

async function otherId(dataDir: string, collection: 'patients' | 'relationships', id: string): Promise<string | undefined> {
  const names = (await readdir(path.join(dataDir, collection)).catch(() => [] as string[])).sort();
  for (const name of names) {
    const candidate = name.replace(/\.xml$/, '');
    if (candidate === id || !/^\d{12}$/.test(candidate)) continue;
    if (collection === 'relationships') return candidate;
    if (await stat(path.join(dataDir, collection, name, 'patient.xml')).then(() => true, () => false)) return candidate;
  }
  return undefined;
}

/** `request` with its id replaced; unchanged when the folder holds nobody else. */
export async function aboutSomeoneElse(dataDir: string, request: SimRequest): Promise<SimRequest> {
  const segments = request.url.pathname.split('/');
  const collection = segments[3] === 'relationships' ? 'relationships' : 'patients';
  const other = await otherId(dataDir, collection, segments[4] ?? '');
  if (other === undefined) return request;
  segments[4] = other;
  const url = new URL(request.url);
  url.pathname = segments.join('/');
  return { ...request, url };
}
