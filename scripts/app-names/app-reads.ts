/**
 * The reads the patient app shows, each as its folder's FHIR form describes it (`app`,
 * src/reads/app-view.ts): the searches it sends, the view that renders it and the types it shows, titled
 * with the access log's name of the read. The app's build takes them into `virtual:access-log-names`
 * (names.ts), so a read registered in src/reads/sources.ts appears in the app with no edit in app/.
 */
import { hasSection, type AppView } from '../../src/reads/app-view.js';
import { isServed, type NotServed } from '../../src/reads/read-sources.js';

interface Words { sv: string; en: string }

/** One read's section as the app gets it: `read` is the operation's name, which the access log and the sharing categories use too. */
export interface AppRead {
  read: string;
  title: Words;
  /** Its searches, one or more, each as its folder writes it: one list whatever the read declares, so the app sends them one way. */
  searches: readonly [string, ...string[]];
  view: string;
  /** The resource types the read's searches match: the list view's items (the rest are what they refer to). */
  types: readonly string[];
  keepsDigits: boolean;
}

/** The part of a read's sources this needs: its FHIR form, or NOT_SERVED (then it is in neither /fhir nor the app). */
type Sources = Readonly<Record<string, { readonly asFhir: { readonly types: readonly string[]; readonly app: AppView } | NotServed }>>;

/** Every read with a section, in the sections' order (`position`, then the read's name). */
export function appReadsOf(sources: Sources, titleOf: (read: string) => Words): AppRead[] {
  return Object.entries(sources).flatMap(([read, { asFhir }]) => {
    if (!isServed(asFhir) || !hasSection(asFhir.app)) return [];
    const { search, view, position, keepsDigits } = asFhir.app;
    const { sv, en } = titleOf(read);
    const searches: AppRead['searches'] = typeof search === 'string' ? [search] : [...search];
    return [{ position, entry: { read, title: { sv, en }, searches, view, types: [...asFhir.types], keepsDigits: keepsDigits === true } }];
  }).sort((a, b) => a.position - b.position || a.entry.read.localeCompare(b.entry.read)).map((r) => r.entry);
}
