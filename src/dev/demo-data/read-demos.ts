/**
 * Every read's demo data, gathered from the reads' folders (`demo` in src/reads/<read>/sources.ts, a
 * lazy import, so the service loads no demo data outside demo mode). A read served from a legacy
 * document without its demo document, or served over FHIR without its demo resources, fails the
 * typecheck here, naming the read.
 */
import type { FhirRead } from '../../adapters/ehr-fhir/client/read-plans.js';
import type { XmlRead } from '../../adapters/ehr-xml/documents.js';
import { READ_NAMES, type ReadName } from '../../domain/operations/table.js';
import type { ReadSources } from '../../reads/read-sources.js';
import { READ_SOURCES } from '../../reads/source-table.js';
import type { ReadDemo } from './read-demo.js';

type Sources = typeof READ_SOURCES;
type DemoOf<R extends ReadName> = Sources[R] extends { demo: () => Promise<{ demo: infer D extends ReadDemo }> } ? D : undefined;
type Demos = { readonly [R in ReadName]: DemoOf<R> };

/** What the typecheck asks of each read: a demo document where a document serves it, demo resources where FHIR does. */
type Complete = { readonly [R in XmlRead]: { readonly xml: NonNullable<ReadDemo['xml']> } }
  & { readonly [R in FhirRead]: { readonly fhir: NonNullable<ReadDemo['fhir']> } };

const loaded = await Promise.all(READ_NAMES.map(async (read) =>
  [read, (await (READ_SOURCES[read] as ReadSources<ReadName>).demo?.())?.demo] as const));

export const READ_DEMOS = Object.fromEntries(loaded) as Demos satisfies Complete;

/** Each read's demo, as the gatherers walk them (in the operation table's order). */
export const readDemos = (): [ReadName, ReadDemo | undefined][] => READ_NAMES.map((read) => [read, READ_DEMOS[read]]);
