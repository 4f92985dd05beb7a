/**
 * The tables of the reads (issue 57 item 3), made from the operation table and the reads' folders each
 * time they are asked for: `npm run reads` prints them, and the docs point here rather than keep a copy
 * a new read would have to edit. Each read's README holds its mapping.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPS_SECTIONS } from '../../src/domain/fhir/ips-sections.js';
import { READ_RESOURCE_TYPES } from '../../src/domain/fhir/resource-types.js';
import { searchOf, type FhirType } from '../../src/domain/fhir/search-parameters.js';
import type { RecordsRead } from '../../src/domain/operations/operation.js';
import { OPERATIONS, READ_NAMES, RELEASE_FILTERED_READS, type ReadName } from '../../src/domain/operations/table.js';
import type { ReversePlan, SearchPlan } from '../../src/adapters/ehr-fhir/client/read-plan.js';
import { isServed } from '../../src/reads/read-sources.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { hasSection, type AppView } from '../../src/reads/app-view.js';
import { APP_READS } from '../app-names/names.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const entry = (read: ReadName): RecordsRead => OPERATIONS[read] as RecordsRead;
/** "medications (9)": the read as the docs name it, with its number where it has one. */
const named = (read: ReadName): string => {
  const { displayName, number } = entry(read);
  return `${displayName.en.toLowerCase()}${number === undefined ? '' : ` (${String(number)})`}`;
};
const code = (text: string): string => `\`${text}\``;
const folderOf = (folders: ReadonlyMap<ReadName, URL>, read: ReadName): string => {
  const folder = folders.get(read);
  if (folder === undefined) throw new Error(`${read} has no folder under src/reads/`);
  return path.relative(ROOT, fileURLToPath(folder)).replace(/\/$/, '');
};
const formTypes = (read: ReadName): readonly string[] => {
  const form = READ_SOURCES[read].asFhir;
  return isServed(form) ? form.types : [];
};

/** docs/fhir-api.md: each read's declared types, the reads whose FHIR form serves them, and their date parameters. */
function readTypesTable(): string {
  const rows = READ_NAMES.flatMap((read) => {
    const types = Object.keys(entry(read).fhirTypes ?? {}).filter((t) => Object.hasOwn(READ_RESOURCE_TYPES, t)) as FhirType[];
    if (types.length === 0) return [];
    const servers = READ_NAMES.filter((r) => formTypes(r).some((t) => types.includes(t as FhirType)));
    const dates = types.flatMap((t) => {
      const date = searchOf(t).date;
      return date === undefined ? [] : [`${code(date.param)} (${date.elements.map(code).join(', ')})`];
    });
    return [`| ${types.join(', ')} | ${servers.map(named).join(' and ')} | ${dates.length === 0 ? '–' : dates.join(', ')} |`];
  });
  return ['| resource type | the records (COS operation) | date parameter |', '|---|---|---|', ...rows].join('\n');
}

/** docs/fhir-api.md#patient-summary: the sections, as their types declare them. */
function summaryTable(): string {
  const rows = IPS_SECTIONS.map((s) => {
    const reads = READ_NAMES.filter((r) => formTypes(r).includes(s.type));
    return `| ${s.title} | ${code(s.code)} | ${s.type} (${reads.map((r) => entry(r).displayName.en.toLowerCase()).join(', ')}) | ${s.required ? 'always' : 'only with entries'} | "${s.noneKnown}" |`;
  });
  return ['| section | LOINC | entries | present | empty, none known |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** `Type?patient&date&status=…`: the names a search sends, the values of the ones that are fixed, its includes. */
function searchText(type: string, params: readonly (readonly [string, string])[]): string {
  const parts: string[] = [];
  let included = false;
  for (const [name, value] of params) {
    if (name.startsWith('_include')) included = true;
    else if (name === 'patient' || /^(ge|gt|le|lt)\d/.test(value)) parts.push(name);
    else parts.push(`${name}=${value}`);
  }
  return `${code(`${type}?${[...new Set(parts)].join('&')}`)}${included ? ' + includes' : ''}`;
}

/** docs/upstream-fhir.md §0: each read served over FHIR, its searches and the folder of its mapping. */
function glanceTable(folders: ReadonlyMap<ReadName, URL>): string {
  const range = { from: '20260101000000', to: '20260102000000' };
  const rows = READ_NAMES.flatMap((read) => {
    const served = READ_SOURCES[read].fhir;
    if (!isServed(served)) return [];
    const plan: { searches: readonly SearchPlan[]; reverse?: ReversePlan } = served;
    const searches = plan.searches.map((s) => searchText(s.type, s.params('id', range, 'Europe/Stockholm')));
    const reverse = plan.reverse === undefined ? undefined : `_revinclude=${plan.reverse.type}:${plan.reverse.param}`;
    if (reverse !== undefined && !searches.some((s) => s.includes(reverse))) searches.push(code(reverse));
    const folder = folderOf(folders, read);
    const named = `${entry(read).displayName.en.toLowerCase()} (${code(read)})`;
    // A `|` in a value would end the table's cell, even within code.
    const listed = searches.length === 0 ? 'none (the Patient and what it references)' : searches.join(', ').replaceAll('|', '\\|');
    return [`| ${String(entry(read).number ?? '–')} | ${named} | ${listed} | [${folder.replace('src/reads/', '')}/](${folder}/README.md) |`];
  });
  return ['| # | read | searches (beyond the patient lookup) | its folder: mapping and README |', '|---|---|---|---|', ...rows].join('\n');
}

/** docs/release-policy.md: the reads the policy concerns, those whose entry has a release rule. */
const releaseFilteredList = (): string =>
  READ_NAMES.filter((r) => RELEASE_FILTERED_READS.includes(r as never)).map((r) => `- ${entry(r).displayName.en.toLowerCase()} (${code(r)})`).join('\n');

/** docs/patient-app.md#the-reads-sections: each read's section as its folder describes it (the app's own list, APP_READS), then the reads without one. */
function appSectionsTable(): string {
  // A `|` in a search would end the table's cell, even within code.
  const cell = (text: string): string => code(text).replaceAll('|', '\\|');
  const shown = APP_READS.map((r) => `| ${r.title.en} (${code(r.read)}) | ${r.searches.map(cell).join(', ')} | ${r.view === 'list' ? 'the list every read shares' : `its own, ${code(r.view)}`} |`);
  const others = READ_NAMES.flatMap((read) => {
    const form = READ_SOURCES[read].asFhir;
    const app: AppView | undefined = isServed(form) ? form.app : undefined;
    if (app === undefined || hasSection(app)) return [];
    return [`| ${entry(read).displayName.en} (${code(read)}) | none | ${app.noSection} |`];
  });
  return ['| section (read) | searches | view |', '|---|---|---|', ...shown, ...others].join('\n');
}

/** One table: its name, what it lists, the doc that points at it, and how it is made. */
export interface ReadTable {
  name: string;
  title: string;
  doc: string;
  make(folders: ReadonlyMap<ReadName, URL>): string;
}

export const READ_TABLES: readonly ReadTable[] = [
  { name: 'read-types', title: 'The resource types the reads bring, with their date parameters', doc: 'docs/fhir-api.md', make: readTypesTable },
  { name: 'summary-sections', title: 'The patient summary\'s sections', doc: 'docs/fhir-api.md', make: summaryTable },
  { name: 'reads-at-a-glance', title: 'The reads a FHIR EHR serves, their searches and folders', doc: 'docs/upstream-fhir.md', make: glanceTable },
  { name: 'release-filtered-reads', title: 'The reads the release policy concerns', doc: 'docs/release-policy.md', make: releaseFilteredList },
  { name: 'app-sections', title: 'The patient app\'s sections of the reads', doc: 'docs/patient-app.md', make: appSectionsTable },
];
