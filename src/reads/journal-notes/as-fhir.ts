/**
 * getJournalNotes as FHIR (docs/upstream-fhir.md#310-journal-notes-operation-10 read backwards):
 * each extract a Composition, its Records sections (as-fhir-sections.ts), its authors and signers
 * PractitionerRoles, its care unit the custodian, its contact an Encounter. The `fhir-r4` adapter
 * reading these back answers the records they came from.
 */
import type { JournalExtract } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm, FhirResource } from '../as-fhir.js';
import { fhirDateTime, fhirOnly, securityLabels } from '../as-fhir-common.js';
import { fhirInstant, identifierOf, logicalIdOf, partIdOf, textConcept, UNKNOWN } from '../as-fhir-datatypes.js';
import { encounterOf } from '../as-fhir-encounter.js';
import { pascalUnitContacts, WrittenResources } from '../as-fhir-parties.js';
import { sectionsOf } from './as-fhir-sections.js';

type CareProvider = JournalExtract['CareProviders']['CareProvider'][number];

/** Who wrote the note: FHIR's author, and the legacy signer's and documenter's words (the equivalence test pairs them). */
const AUTHORS: ReadonlySet<string> = new Set(['author', 'SIGNERARE', 'DOKUMENTERARE']);

/**
 * The secrecy levels as `confidentiality` and `meta.security`, which the inbound lists in that
 * order: the first level is the confidentiality (a v3 code as it is, `Normal` as `N`, a legacy word
 * as `R`), the further ones labels. A note kept secret by a legacy word is labelled `R` too, as
 * FHIR writes a secret note (docs/upstream-fhir.md#310-journal-notes-operation-10: `R` twice).
 */
function secrecy(levels: readonly string[]) {
  const first = levels[0];
  if (first === undefined) return {};
  const code = first === 'Normal' ? 'N' : securityLabels([first])[0]?.code;
  const legacy = code !== first;
  return { confidentiality: code, security: securityLabels(legacy ? levels : levels.slice(1)) };
}

/** What Units holds of the unit with this HSA id (of the first unit, for a note that names none). */
const unitEntry = (e: JournalExtract, hsaId: string | undefined) =>
  e.Units.Unit.find((x) => x.UnitID?.extension === hsaId) ?? (hsaId === undefined ? e.Units.Unit[0] : undefined);

/** A unit the note names by HSA id, with what Units holds of it; the care unit's head care provider is the note's. */
function unitOf(e: JournalExtract, hsaId: string | undefined, out: WrittenResources, ctx: AsFhirContext) {
  const u = unitEntry(e, hsaId);
  const careUnit = hsaId === e.CareUnit?.UnitID?.extension;
  return out.unit({
    hsaId: u?.UnitID?.extension ?? hsaId,
    name: u?.UnitName,
    headHsaId: (careUnit ? e.HeadCareproviderUnit?.UnitID?.extension : undefined) ?? u?.HeadCareproviderUnitID?.extension,
    ...pascalUnitContacts(u?.PhoneNumbers.Phone, u?.EmailAddresses.Email, u?.UnitAddresses.UnitAddress[0]),
  }, ctx);
}

const staffOf = (e: JournalExtract, cp: CareProvider, out: WrittenResources, ctx: AsFhirContext) => out.staff({
  hsaId: cp.CareProviderID?.extension, internalId: cp.CareProviderInternalID, name: cp.CareProviderName,
  position: cp.ProviderPosition?.CareProviderPositionName,
  unit: cp.CareProviderUnit?.UnitID === undefined ? undefined : unitOf(e, cp.CareProviderUnit.UnitID.extension, out, ctx),
}, ctx);

/**
 * The signers as attesters, the first with the time of signing (the inbound reads a legal
 * attester's time). R4 requires a mode: a note's signature is its legal attestation.
 */
function attesters(e: JournalExtract, out: WrittenResources, ctx: AsFhirContext) {
  const signed = fhirDateTime(e.Note?.NoteSignDateTime, ctx.zone);
  const parties = e.CareProviders.CareProvider.filter((c) => c.CareProviderType === 'attester').map((c) => staffOf(e, c, out, ctx));
  if (parties.length === 0) return signed === undefined ? undefined : [{ mode: 'legal', time: signed }];
  return parties.map((party, i) => fhirOnly({ mode: 'legal', time: i === 0 ? signed : undefined, party }));
}

function contact(e: JournalExtract, custodian: { reference: string } | undefined, out: WrittenResources, ctx: AsFhirContext) {
  const c = e.HCMContact;
  if (c === undefined) return undefined;
  const performer = c.ContactPerformingUnit;
  let serviceProvider = performer !== undefined && performer === unitEntry(e, e.CareUnit?.UnitID?.extension)?.UnitName ? custodian : undefined;
  if (performer !== undefined && serviceProvider === undefined) {
    // A unit named by its name alone, as the inbound reads it: the contact's own.
    const id = partIdOf('Organization', e.ehr_id, 'performing-unit', ctx);
    out.referenced({ resourceType: 'Organization', id, name: performer });
    serviceProvider = { reference: `Organization/${id}` };
  }
  return encounterOf({
    id: c.HCMContacInternaltID === undefined ? partIdOf('Encounter', e.ehr_id, 'contact', ctx) : logicalIdOf('Encounter', c.HCMContacInternaltID, ctx),
    status: c.HCMContactStatus, type: c.HCMContactType, start: c.HCMContactBegin?.value, serviceProvider,
  }, ctx);
}

function composition(e: JournalExtract, out: WrittenResources, ctx: AsFhirContext): FhirResource[] {
  const n = e.Note;
  const custodian = e.CareUnit?.UnitID === undefined && e.Units.Unit.length === 0 ? undefined : unitOf(e, e.CareUnit?.UnitID?.extension, out, ctx);
  const encounter = contact(e, custodian, out, ctx);
  const authors = e.CareProviders.CareProvider.filter((c) => c.CareProviderType !== undefined && AUTHORS.has(c.CareProviderType))
    .flatMap((c) => [staffOf(e, c, out, ctx)].filter((r) => r !== undefined));
  const { confidentiality, security } = secrecy(n?.NoteSecrecyLevels.SecrecyLevel ?? []);
  const lastUpdated = fhirInstant(n?.NoteVersionDateTime, ctx.zone);
  const meta = fhirOnly({ lastUpdated, security });
  const { sections, contained } = sectionsOf(n?.Records.Record ?? []);
  const main = fhirOnly({
    resourceType: 'Composition', id: ctx.idOf('Composition', e.ehr_id),
    meta: Object.keys(meta).length === 0 ? undefined : meta,
    contained,
    identifier: identifierOf(n?.NoteId),
    // A note made inactive upstream is one entered in error (docs/upstream-fhir.md#310-journal-notes-operation-10); unsigned, it is preliminary.
    status: n?.NoteActive === false ? 'entered-in-error' : n?.NoteSignDateTime === undefined ? 'preliminary' : 'final',
    // R4 requires a type, an author and a title; where the record has none, each is said to be unknown.
    type: textConcept(n?.NoteTypeOfNote) ?? UNKNOWN,
    subject: { reference: ctx.patientReference },
    encounter: encounter === undefined ? undefined : { reference: `Encounter/${encounter.id}` },
    date: fhirDateTime(n?.NoteDateTime ?? e.time_created, ctx.zone),
    author: authors.length === 0 ? [UNKNOWN] : authors,
    title: n?.NoteTemplateName,
    _title: n?.NoteTemplateName === undefined ? UNKNOWN : undefined,
    confidentiality,
    attester: attesters(e, out, ctx),
    custodian,
    section: sections,
  });
  return encounter === undefined ? [main] : [main, encounter];
}

export const journalNotesAsFhir = {
  types: ['Composition'],
  // A note's values are shown, so their digits are kept as written, as the lab results' are.
  app: {
    search: 'Composition?patient={id}&_include=Composition:entry&_include=Composition:author&_include:iterate=PractitionerRole:practitioner',
    view: 'journal-notes', position: 20, keepsDigits: true,
  },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    for (const extract of items.flatMap((r) => r.JournalNoteEHRExtract)) out.add(...composition(extract, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getJournalNotes'>;
