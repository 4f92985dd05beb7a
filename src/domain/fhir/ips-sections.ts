/**
 * The sections of the International Patient Summary (IPS 2.0.0) the patient summary fills
 * (docs/fhir-api.md#patient-summary), each declared beside its type in the read's folder
 * (resources/resource-type.ts's SummarySection) and gathered here in their positions, and the section
 * as the Composition holds it. IPS requires Problems, Allergies and Medications and every section's
 * narrative: a required section is there even when empty, saying why with a `list-empty-reason`
 * (IPS's ips-comp-1); an optional one (Results) is there only with entries.
 */
import type { FhirResource } from '../../reads/as-fhir.js';
import { RESOURCE_TYPES } from './resource-types.js';
import type { Resolve, SummarySection } from './resources/resource-type.js';

const LOINC = 'http://loinc.org';
const EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';

/** A section of the summary and the type whose entries it holds. */
export interface IpsSection extends SummarySection {
  readonly type: keyof typeof RESOURCE_TYPES;
}

export const IPS_SECTIONS: readonly IpsSection[] = (Object.keys(RESOURCE_TYPES) as (keyof typeof RESOURCE_TYPES)[])
  .flatMap((type) => {
    const summary: SummarySection | null = RESOURCE_TYPES[type].summary;
    return summary === null ? [] : [{ ...summary, type }];
  })
  .sort((a, b) => a.position - b.position);

/** What the summary holds of one section's type. */
export interface SectionContent {
  entries: readonly FhirResource[];
  /**
   * Some of the type's records may be left out: the token does not grant the type (or grants only some
   * categories of it), or the release policy withheld records of the read that holds them.
   */
  withheld: boolean;
}

const escaped = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const narrative = (inner: string) => ({ status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${inner}</div>` });

/**
 * The Composition's section, or undefined for an optional section without entries. An empty one says
 * `withheld` when something may have been left out (a reader must not take it for "none"), else
 * `nilknown`: the record holds none.
 */
export function compositionSection(section: IpsSection, content: SectionContent, resolve: Resolve): Record<string, unknown> | undefined {
  const code = { coding: [{ system: LOINC, code: section.code, display: section.display }] };
  if (content.entries.length > 0) {
    const items = content.entries.map((r) => `<li>${escaped(section.line(r, resolve))}</li>`).join('');
    return {
      title: section.title, code, text: narrative(`<ul>${items}</ul>`),
      entry: content.entries.map((r) => ({ reference: `${r.resourceType}/${r.id}` })),
    };
  }
  if (!section.required) return undefined;
  const [reason, display, text] = content.withheld
    ? ['withheld', 'Information Withheld', 'Withheld: not shown in this summary.']
    : ['nilknown', 'Nil Known', section.noneKnown];
  return { title: section.title, code, text: narrative(`<p>${escaped(text)}</p>`), emptyReason: { coding: [{ system: EMPTY_REASON, code: reason, display }] } };
}
