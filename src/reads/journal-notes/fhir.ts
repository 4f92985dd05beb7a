/**
 * Operation 10, journal notes (docs/upstream-fhir.md#310-journal-notes-operation-10): one
 * JournalNoteRecord (layout 3.1, the one with `$self`) holding one extract per Composition. A note
 * is signed when an attester (legal, else professional) gives a time, and never while it is
 * preliminary: the release policy can withhold an unsigned note.
 */
import type { JournalExtract, JournalNoteRecord } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, unitAddressItems, unitOf, type UnitFacts } from '../../adapters/ehr-fhir/care-parties.js';
import { textOf } from '../../adapters/ehr-fhir/codes.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { patientNamePascal } from '../../adapters/ehr-fhir/human-name.js';
import { hsaIi, ii, own, unitIdPascalOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { recordsOf } from './fhir-note-records.js';
import { answerable, oneRecordOf, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import { containedOf, type ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { Composition } from './resource-types.js';
import { emailItems, phoneItems } from '../../adapters/ehr-fhir/telecom.js';
import { securityCodes } from '../../adapters/ehr-fhir/vendor-parts.js';

/** The layout filled: journal notes 3.1. */
const XSD_VERSION = 3.1;

type Note = NonNullable<JournalExtract['Note']>;
type JournalUnit = JournalExtract['Units']['Unit'][number];
type CareProvider = JournalExtract['CareProviders']['CareProvider'][number];

function signedAt(composition: Composition, ctx: MapContext): Note['NoteSignDateTime'] {
  if (composition.status === 'preliminary') return undefined;
  const attesters = composition.attester ?? [];
  const attester = attesters.find((a) => a.mode === 'legal' && a.time !== undefined)
    ?? attesters.find((a) => a.mode === 'professional' && a.time !== undefined);
  return ts(attester?.time, ctx);
}

function note(composition: Composition, index: ResourceIndex, ctx: MapContext): Note {
  return definedOnly({
    NoteId: ii(composition.identifier),
    NoteTemplateName: composition.title,
    NoteTypeOfNote: textOf(composition.type),
    NoteActive: true,
    NoteDateTime: ts(composition.date, ctx),
    NoteVersionDateTime: ts(composition.meta?.lastUpdated, ctx),
    NoteSignDateTime: signedAt(composition, ctx),
    NoteSecrecyLevels: { SecrecyLevel: [...(composition.confidentiality === undefined ? [] : [composition.confidentiality]), ...securityCodes(composition)] },
    Records: { Record: (composition.section ?? []).flatMap((s) => recordsOf(s, (entry) => containedOf(composition, entry, 'Observation') ?? index.get(entry, 'Observation'))) },
  });
}

function journalUnit(unit: UnitFacts): JournalUnit {
  return definedOnly({
    UnitID: hsaIi(unit.hsaId),
    UnitName: unit.org.name,
    HeadCareproviderUnitID: hsaIi(unit.headHsaId),
    PhoneNumbers: { Phone: phoneItems(unit.phones) },
    EmailAddresses: { Email: emailItems(unit.emails) },
    UnitAddresses: { UnitAddress: unitAddressItems(unit) },
    UnitSecrecyGroups: { Group: [] },
    AccessZones: { AccessZoneID: [] },
  });
}

function careProviders(composition: Composition, index: ResourceIndex): CareProvider[] {
  const parties = [
    ...composition.author.map((ref) => ({ type: 'author', ref })),
    ...(composition.attester ?? []).map((a) => ({ type: 'attester', ref: a.party })),
  ];
  return parties.flatMap(({ type, ref }) => {
    const staff = staffOf(ref, index);
    if (staff === undefined) return [];
    return [definedOnly({
      CareProviderType: type,
      CareProviderID: hsaIi(staff.hsaId),
      CareProviderInternalID: staff.internalId,
      CareProviderName: staff.name,
      ProviderPosition: staff.position === undefined ? undefined : { CareProviderPositionName: staff.position },
      CareProviderUnit: unitIdPascalOf(staff.unitHsaId),
    })];
  });
}

function extract(composition: Composition, input: ReadInput, ctx: MapContext): JournalExtract {
  const { index, patient } = input;
  const encounter = index.get(composition.encounter, 'Encounter');
  const custodian = unitOf(composition.custodian, index);
  const created = ts(composition.date, ctx);
  if (created === undefined) throw fhirFault('a Composition dated by a year or a month alone');
  return definedOnly({
    ehr_id: own(composition, ctx.idRoot),
    time_created: created,
    HCMContact: encounter === undefined ? undefined : definedOnly({
      HCMContacInternaltID: encounter.id,
      HCMContactBegin: ts(encounter.period?.start, ctx),
      HCMContactType: textOf(encounter.type?.[0]),
      HCMContactStatus: encounter.status,
      ContactPerformingUnit: index.get(encounter.serviceProvider, 'Organization')?.name,
    }),
    Note: note(composition, index, ctx),
    Patient: definedOnly({
      PatientID: patient.personId,
      PatientProtectedId: patient.protectedId,
      PatientInternalID: patient.resource.id,
      PatientName: patientNamePascal(patient.name),
    }),
    CareUnit: unitIdPascalOf(custodian?.hsaId),
    HeadCareproviderUnit: unitIdPascalOf(custodian?.headHsaId),
    CareProviders: { CareProvider: careProviders(composition, index) },
    Units: { Unit: custodian === undefined ? [] : [journalUnit(custodian)] },
  });
}

export function mapJournalNotes(input: ReadInput, ctx: MapContext): JournalNoteRecord[] {
  return oneRecordOf(answerable(input, 'Composition').map((c) => extract(c, input, ctx)),
    (extracts) => ({ XSDVersion: { version: XSD_VERSION }, JournalNoteEHRExtract: extracts }), input.withheld === true);
}
