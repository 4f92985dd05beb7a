/**
 * A read's hand-kept test oracles (docs/architecture.md#adding-a-read): the facts of one read that the
 * tests hold the service to, written by hand in the read's folder (`src/reads/<read>/oracles.ts`) and
 * never derived from the operation table or the sources they check. `ReadOracles<R>` asks of each read
 * what its own declarations call for, so the typecheck names a fact the read's oracles.ts still lacks
 * (or still states when the declaration is gone); READ_ORACLES gathers the folders' files, with no
 * registry line, and the tests look each fact up by read.
 */
import { existsSync } from 'node:fs';
import type { FhirRead } from '../../src/adapters/ehr-fhir/client/read-plans.js';
import type { XmlRead } from '../../src/adapters/ehr-xml/documents.js';
import type { ReadItem, ReadName, ReleaseFilteredRead } from '../../src/domain/operations/table.js';
import type { FhirFormRead } from '../../src/reads/source-table.js';
import type { Difference } from '../adapters/ehr-fhir/support/differences.js';
import { readFolders } from './read-folders.js';

/** A read answered from the legacy EHR's document (step 2). */
interface DocumentOracles<R extends ReadName> {
  /** How the document is read: a mirror of the answer's schema (`mirrorReading`) or a reading of its own (`xml.ts`). */
  readonly reading: 'mirror' | 'own reading';
  /**
   * The local times (14 digits, in the EHR's `zone`) the EHR's own from/to filter keeps each record by,
   * from the mapped records; or that it does not filter the document.
   */
  readonly times: ((records: ReadItem<R>[], zone: string) => string[]) | 'not filtered';
}

/** A read whose entry has a release rule (step 1). */
interface ReleaseOracles {
  /** Every path of the read, the spec's and the vendor's, without the trailing slash: each may answer `Patient-Data-Filtered`. */
  readonly filteredPaths: readonly string[];
  /** Whether examples/release-policy.json withholds anything of the demo people from the read. */
  readonly withholds: boolean;
}

/** A read the service's own FHIR API serves (step 5). */
interface FormOracles {
  /** The resource types of its FHIR form (docs/fhir-api.md). */
  readonly formTypes: readonly string[];
}

/** A read a FHIR EHR is asked for (steps 3 and 4). */
interface PlanOracles<R extends ReadName> {
  /** How a record is known in both forms of the demo data read at `now`, whatever else differs. */
  readonly keys: (answer: ReadItem<R>[], now: number) => string[];
}

/** A read both EHRs serve (step 3). */
interface EquivalenceOracles {
  /** Every member the FHIR form cannot carry or values by a rule, each with the section that says why; or none. */
  readonly differences: readonly Difference[];
}

/** Nothing to state: an object literal with a member here is refused, as it is stale. */
type Nothing = Record<never, never>;

/** What the oracles.ts of read R states: each member exactly when R's own declarations call for it. */
export type ReadOracles<R extends ReadName> =
  & ([R] extends [XmlRead] ? DocumentOracles<R> : Nothing)
  & ([R] extends [ReleaseFilteredRead] ? ReleaseOracles : Nothing)
  & ([R] extends [FhirFormRead] ? FormOracles : Nothing)
  & ([R] extends [FhirRead] ? PlanOracles<R> : Nothing)
  & ([R] extends [XmlRead & FhirRead] ? EquivalenceOracles : Nothing);

/**
 * Every member an oracles.ts may state, as the tests look them up for any read: each read's own file
 * is typed by its records, and the tests pass each function that read's records only.
 */
export interface Stated {
  reading: DocumentOracles<ReadName>['reading'];
  times: ((records: unknown[], zone: string) => string[]) | 'not filtered';
  filteredPaths: ReleaseOracles['filteredPaths'];
  withholds: ReleaseOracles['withholds'];
  formTypes: FormOracles['formTypes'];
  keys: (answer: unknown[], now: number) => string[];
  differences: EquivalenceOracles['differences'];
}

/** The step of docs/architecture.md#adding-a-read whose typecheck asks for each member. */
const STEP: { readonly [M in keyof Stated]: number } = {
  filteredPaths: 1, withholds: 1, reading: 2, times: 2, differences: 3, keys: 4, formTypes: 5,
};

/** The file a read's folder keeps its oracles in; `npm run new-read` writes it. */
const ORACLES_FILE = 'oracles.ts';

/**
 * Each read's folder (src/reads/<folder>/), and the oracles its oracles.ts exports under the read's name,
 * if it has the file; a file that does not load fails here, as it is.
 */
async function gather(): Promise<ReadonlyMap<ReadName, { folder: URL; oracles?: Partial<Stated> }>> {
  const found = new Map<ReadName, { folder: URL; oracles?: Partial<Stated> }>();
  for (const [read, folder] of await readFolders()) {
    const file = new URL(ORACLES_FILE, folder);
    const exports = (existsSync(file) ? await import(file.href) : {}) as Record<string, unknown>;
    found.set(read, { folder, ...(exports[read] === undefined ? {} : { oracles: exports[read] as Partial<Stated> }) });
  }
  return found;
}

/**
 * Each read's folder and oracles, gathered from src/reads/ with no registry line; a read whose folder has
 * no oracles.ts exporting its oracles has none here (test/architecture/read-oracles.test.ts names it).
 */
export const READ_ORACLES = await gather();

/** The oracles.ts of `read`, as the repository names it. */
export const oraclesFileOf = (read: ReadName): string => {
  const folder = READ_ORACLES.get(read)?.folder;
  return folder === undefined ? 'src/reads/<read>/oracles.ts' : `src/reads/${folder.pathname.split('/').at(-2) ?? '<read>'}/${ORACLES_FILE}`;
};

/** Where a test's failure sends the engineer: the member, the oracles.ts that states it and the recipe's step. */
export const recipe = (member: keyof Stated, read?: ReadName): string =>
  `\`${member}\` of ${read === undefined ? 'a read\'s src/reads/<read>/oracles.ts' : oraclesFileOf(read)} (docs/architecture.md#adding-a-read, step ${STEP[member]})`;

/** The reads whose oracles state `member`, with what each states. */
export function statedBy<M extends keyof Stated>(member: M): ReadonlyMap<ReadName, Stated[M]> {
  return new Map([...READ_ORACLES].flatMap(([read, { oracles }]) => {
    const value = oracles?.[member];
    return value === undefined ? [] : [[read, value as Stated[M]]];
  }));
}

/** What `read`'s oracles state of `member`; one that states nothing fails, naming its file and the recipe's step. */
export function statedOf<M extends keyof Stated>(read: ReadName, member: M): Stated[M] {
  const value = READ_ORACLES.get(read)?.oracles?.[member];
  if (value === undefined) throw new Error(`${read} states no ${recipe(member, read)}`);
  return value as Stated[M];
}
