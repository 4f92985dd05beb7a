/**
 * Operation 7, attention signals (docs/upstream-fhir.md#37-attention-signals-operation-7): the
 * hypersensitivities (AllergyIntolerance) and the other signals (Flag), merged into
 * `[{AttentionSignalEHRExtract: [...], XSDVersion: {version: 2.1}}]`.
 */
import type { AttentionSignal, AttentionSignalEhrExtract } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { firstCode, textOf } from '../../adapters/ehr-fhir/codes.js';
import { extensionOf, PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { flagExtract } from './fhir-flags.js';
import { hsaIdOf, isAtc, own, rootOf, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { AllergyIntolerance } from './resource-types.js';
import { signalCareProvider, signalPatient, type Signal } from '../../adapters/ehr-fhir/vendor-parts.js';

/** The layout filled: the vendor's attention-signal layout 2.1. */
const XSD_VERSION = 2.1;

/** The Swedish sub-types of hypersensitivity, by the allergy's first category. */
const SUB_TYPES: Readonly<Record<string, string>> = {
  medication: 'Läkemedelsöverkänslighet',
  food: 'Överkänslighet, ej läkemedel',
  environment: 'Överkänslighet, ej läkemedel',
  biologic: 'Överkänslighet, ej läkemedel',
};

/**
 * Marks the note that is the deletion's comment, dated by the deletion (R4's AllergyIntolerance has
 * no member of its own for either): read as any other note it would join the signal's own Comment,
 * and the patient would read why it was made inactive as part of what it is.
 */
export const DELETION_NOTE = `${PDAS_BASE}StructureDefinition/signal-deletion-comment`;

type Note = NonNullable<AllergyIntolerance['note']>[number];

/** The deletion's comment as the note both dialects write: marked, dated by the deletion (absent when unknown), as written. */
export const deletionNote = (time: string | undefined, text: string): Note =>
  ({ extension: [{ url: DELETION_NOTE, valueBoolean: true }], ...(time === undefined ? {} : { time }), text });
const isDeletion = (n: Note): boolean => extensionOf(n.extension, DELETION_NOTE)?.valueBoolean === true;

function hypersensitivity(allergy: AllergyIntolerance, ctx: MapContext): Signal {
  const codings = allergy.code?.coding ?? [];
  const displays = codings.flatMap((c) => (c.display === undefined ? [] : [c.display]));
  const heading = textOf(allergy.code);
  const reactions = allergy.reaction ?? [];
  // The layout has one comment: a reaction's notes follow the allergy's, rather than be lost.
  const notes = [...(allergy.note ?? []).filter((n) => !isDeletion(n)), ...reactions.flatMap((r) => r.note ?? [])].map((n) => n.text);
  const deletion = allergy.note?.find(isDeletion);
  // One Reaction string: each reaction's words a line, none dropped for the first's.
  const described = reactions.map((r) => r.description ?? textOf(r.manifestation[0])).filter((t) => t !== undefined);
  return definedOnly({
    SignalVersionDateTime: ts(allergy.meta?.lastUpdated, ctx),
    SignalDataType: 'Hypersensitivity',
    SignalWarningSubType: allergy.category?.[0] === undefined ? undefined : SUB_TYPES[allergy.category[0]],
    SignalActive: firstCode(allergy.clinicalStatus) === 'active' && firstCode(allergy.verificationStatus) !== 'refuted',
    SignalDeletionDate: ts(deletion?.time, ctx),
    SignalDeletionComment: deletion?.text,
    MedicalRecordLinks: { MedicalRecordLinkData: [] },
    HypersensitivityType: definedOnly({
      Heading: heading,
      Comment: notes.length === 0 ? undefined : notes.join('\n'),
      Severity: allergy.criticality,
      Certitude: firstCode(allergy.verificationStatus),
      Reaction: described.length === 0 ? undefined : described.join('\n'),
      ReactionTypes: reactions.flatMap((r) => r.manifestation.map(textOf)).filter((t): t is string => t !== undefined),
      Agent: displays.length > 0 ? displays : heading === undefined ? [] : [heading],
      SignalATCCodes: {
        signalATCCode: codings.filter(isAtc).map((c) => definedOnly({
          Code: c.code, CodeSystem: rootOf(c.system as string), CodeSystemName: 'ATC', DisplayName: c.display === undefined ? undefined : { value: c.display },
        })),
      },
    }),
  });
}

function allergyExtract(allergy: AllergyIntolerance, input: ReadInput, ctx: MapContext): AttentionSignalEhrExtract {
  const recorderRole = input.index.get(allergy.recorder, 'PractitionerRole');
  return definedOnly({
    ehr_id: own(allergy, ctx.idRoot),
    time_created: ts(allergy.recordedDate, ctx) ?? ts(allergy.meta?.lastUpdated, ctx),
    AttentionSignal: hypersensitivity(allergy, ctx),
    Patient: signalPatient(input.patient),
    CareUnit: unitIdOf(hsaIdOf(input.index.get(recorderRole?.organization, 'Organization')?.identifier)),
    Units: { Unit: [] },
    CareProviders: {
      CareProvider: [...signalCareProvider('recorder', allergy.recorder, input.index), ...signalCareProvider('asserter', allergy.asserter, input.index)],
    },
  });
}

export function mapAttentionSignals(input: ReadInput, ctx: MapContext): AttentionSignal[] {
  const extracts = [
    ...answerable(input, 'AllergyIntolerance').map((a) => allergyExtract(a, input, ctx)),
    ...answerable(input, 'Flag').map((f) => flagExtract(f, input, ctx)),
  ];
  // One element, however many signals: the read's selection leaves out an element left empty.
  return [{ AttentionSignalEHRExtract: extracts, XSDVersion: { version: XSD_VERSION } }];
}
