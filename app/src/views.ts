/**
 * Which view renders each read's section: the one its folder names (src/reads/app-view.ts's
 * OWN_VIEWS, through `virtual:access-log-names`), else the list view every read shares. A read with a
 * view of its own is here; a new read is shown with no edit in app/.
 */
import type { Chart } from 'chart.js';
import type { AppRead } from 'virtual:access-log-names';
import { appointments } from './appointments.js';
import { h, type Child } from './dom.js';
import type { Observation, Resource } from './fhir-types.js';
import type { Lang } from './i18n.js';
import { journalNotes } from './journal.js';
import { labTest } from './labs.js';
import { groupByTest } from './lab-series.js';
import { listView } from './list-view.js';
import { diagnoses, medications } from './records.js';

/** A section's content from its read's resources; a lab plot is drawn once its canvas is in the page, by what `charts` collects. */
export type View = (found: Resource[], lang: Lang, charts: (() => Chart)[]) => Child;

const labPlots: View = (found, lang, charts) => {
  const tests = groupByTest(found.filter((r): r is Observation => r.resourceType === 'Observation'));
  return h('div', { class: 'labs' }, ...tests.map((t) => labTest(t, lang, charts)));
};

/** The reads' own views, by the names their folders may give them (src/reads/app-view.ts): one missing is a type error. */
export const OWN_VIEWS: Readonly<Record<Exclude<AppRead['view'], 'list'>, View>> = {
  appointments: (found, lang) => appointments(found, lang),
  'journal-notes': (found, lang) => journalNotes(found, lang),
  medications: (found, lang) => medications(found, lang),
  diagnoses: (found, lang) => diagnoses(found, lang),
  'lab-plots': labPlots,
};

/** The view of `read`: the list of the types its search matches, or its own. */
export function viewOf(read: AppRead): View {
  return read.view === 'list' ? (found, lang) => listView(found, read.types, lang) : OWN_VIEWS[read.view];
}
