/** Looking up the extensions the mapping reads, by their canonical URL. */
import type { Extension, SubExtension } from '../../domain/fhir/resources/datatypes.js';

export const SE_BASE = 'http://hl7.se/fhir/ig/base/StructureDefinition/';
export const PDAS_BASE = 'http://example.org/fhir/pdas/';

/** The first extension with `url`; FHIR allows repeats, the mapping reads one. */
export const extensionOf = (extensions: readonly Extension[] | undefined, url: string): Extension | undefined =>
  extensions?.find((e) => e.url === url);

/** A sub-extension of a complex extension, by its (relative) name. */
export const partOf = (extension: Extension | undefined, name: string): SubExtension | undefined =>
  extension?.extension?.find((e) => e.url === name);
