/**
 * Operation 12, diagnoses (docs/upstream-fhir.md#312-diagnoses-operation-12): one extract per
 * Condition, in `[{diagnosisEHRExtract: [...]}]`; its actions are the Procedures whose
 * `reasonReference` names it. R4 has no signing time for a Condition, so a confirmed one counts as
 * signed when it was recorded, and an unconfirmed one as unsigned (the release policy may withhold it).
 */
import type { DiagnosisEhrExtract, Diagnoses } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, unitOf } from '../../adapters/ehr-fhir/care-parties.js';
import { firstCode, textBeside, textOf } from '../../adapters/ehr-fhir/codes.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { isIcd10Se, isKva, own, rootOf, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { Condition, Procedure } from './resource-types.js';
import { contactPatient, encounterContact, securityCodes, vendorCareProvider } from '../../adapters/ehr-fhir/vendor-parts.js';

type Action = NonNullable<DiagnosisEhrExtract['diagnoses']>['action'][number];

function action(procedure: Procedure, ctx: MapContext): Action {
  const coding = procedure.code?.coding?.find(isKva) ?? procedure.code?.coding?.[0];
  return definedOnly({
    rcId: own(procedure, ctx.idRoot),
    actionTerminology: coding?.system === undefined ? undefined : rootOf(coding.system),
    actionCode: coding?.code,
    actionDescription: textBeside(procedure.code, coding),
    actionSurgeryDateTime: ts(procedure.performedDateTime ?? procedure.performedPeriod?.start, ctx),
  });
}

/** The Procedures of `procedures` done for `condition`, in the order held. */
const proceduresFor = (condition: Condition, procedures: readonly Procedure[], index: ResourceIndex): Procedure[] =>
  procedures.filter((p) => (p.reasonReference ?? []).some((r) => index.keyOf(r.reference) === `Condition/${condition.id}`));

function extract(condition: Condition, procedures: readonly Procedure[], input: ReadInput, ctx: MapContext): DiagnosisEhrExtract {
  const { index } = input;
  const verification = firstCode(condition.verificationStatus);
  const refuted = verification === 'refuted';
  const icd = condition.code?.coding?.find(isIcd10Se);
  const encounter = index.get(condition.encounter, 'Encounter');
  const unit = unitOf(encounter?.serviceProvider, index);
  return definedOnly({
    ehrId: own(condition, ctx.idRoot),
    timeCreated: ts(condition.recordedDate ?? condition.meta?.lastUpdated, ctx),
    diagnosisMetaData: definedOnly({
      DiagnosisVersionDateTime: ts(condition.meta?.lastUpdated, ctx),
      DiagnosisNoteDate: ts(condition.recordedDate, ctx),
      DiagnosisTypeOfNote: textOf(condition.category?.[0]),
      DiagnosisSignDateTime: verification === 'confirmed' ? ts(condition.recordedDate, ctx) : undefined,
      DiagnosisActive: !refuted,
      DiagnosisInactiveReason: refuted ? 'refuted' : undefined,
      DiagnosisSecrecyLevels: { secrecyLevel: securityCodes(condition) },
      DiagnosisTemplateSecrecyLevels: { secrecyLevel: [] },
    }),
    diagnoses: {
      diagnosis: [definedOnly({
        rcId: own(condition, ctx.idRoot),
        diagnosisCode: icd?.code,
        diagnosisDescription: textBeside(condition.code, icd),
        diagnosisCodeType: icd === undefined ? undefined : 'ICD-10-SE',
        diagnosisTerminology: icd?.system === undefined ? undefined : rootOf(icd.system),
        diagnosisType: textOf(condition.category?.[0]),
        diagnosis: [],
        action: proceduresFor(condition, procedures, index).map((p) => action(p, ctx)),
      })],
      action: [],
    },
    patient: contactPatient(input.patient),
    hCMContact: encounter === undefined ? undefined : { ...encounterContact(encounter, ctx), contactSecrecyLevels: { secrecyLevel: [] } },
    careUnit: unitIdOf(unit?.hsaId),
    accessZoneUnit: unitIdOf(unit?.hsaId),
    headCareProviderUnit: unitIdOf(unit?.headHsaId),
    units: { unit: [] },
    careProviders: {
      careProvider: [
        ...vendorCareProvider('asserter', staffOf(condition.asserter, index)),
        ...vendorCareProvider('recorder', staffOf(condition.recorder, index)),
      ],
    },
  });
}

export function mapDiagnoses(input: ReadInput, ctx: MapContext): Diagnoses[] {
  // One element, however many diagnoses: the read's selection leaves out an element left empty.
  const conditions = answerable(input, 'Condition');
  // The Procedures at hand, answerable ones only, looked up once for every Condition (and not without one).
  const procedures = conditions.length === 0 ? [] : input.index.ofType('Procedure').filter((p) => p.status !== 'entered-in-error');
  return [{ diagnosisEHRExtract: conditions.map((c) => extract(c, procedures, input, ctx)) }];
}
