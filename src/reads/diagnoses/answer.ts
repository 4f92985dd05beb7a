/**
 * Diagnoses (operation 12): the vendor's diagnosis v2 layout, docs/vendor-layouts.md#diagnosis-v2-operation-12
 * (docs/contract.md#lab-results-and-diagnoses). The answer is an array of one `{diagnosisEHRExtract: [...]}`.
 * A diagnosis may hold diagnoses (an external cause under a fracture), to any depth (`Type.Cyclic`);
 * an action (a procedure, a KVÅ code) sits in a diagnosis or directly under `diagnoses`.
 */
import { Type, type Static } from 'typebox';
import { OptStr } from '../../domain/records/common.js';
import {
  OptBool, OptIiPlain, OptSimpleUnitPlain, OptTsPlain, PLAIN_LAYOUT, vendorCareProvider, vendorPatient, VendorSecrecyLevelsSchema, vendorUnit,
} from '../../domain/records/vendor-types.js';


export const DiagnosisActionSchema = Type.Object({
  rcId: OptIiPlain,
  actionTerminology: OptStr,
  actionCode: OptStr,
  actionDescription: OptStr,
  actionSurgeryDateTime: OptTsPlain,
}, { title: 'DiagnosisAction' });

export const DIAGNOSIS_ID = 'pdas.Diagnosis.Diagnosis';

export const DiagnosisSchema = Type.Cyclic({
  [DIAGNOSIS_ID]: Type.Object({
    rcId: OptIiPlain,
    diagnosisCodeType: OptStr,
    diagnosisTerminology: OptStr,
    /** ICD-10-SE, dot kept: `J45.9`. */
    diagnosisCode: OptStr,
    diagnosisDescription: OptStr,
    diagnosisType: OptStr,
    diagnosisChronic: OptBool,
    diagnosisCauseOfDeath: OptStr,
    diagnosis: Type.Array(Type.Ref(DIAGNOSIS_ID)),
    action: Type.Array(DiagnosisActionSchema),
  }),
}, DIAGNOSIS_ID);

export const DiagnosisMetaDataSchema = Type.Object({
  NoteId: OptIiPlain,
  JournalNoteReferenceId: OptIiPlain,
  DiagnosisVersionDateTime: OptTsPlain,
  DiagnosisTemplateName: OptStr,
  DiagnosisTemplateSecrecyLevels: VendorSecrecyLevelsSchema,
  DiagnosisTypeOfNote: OptStr,
  DiagnosisNoteDate: OptTsPlain,
  /** Absent while the note is unsigned. */
  DiagnosisSignDateTime: OptTsPlain,
  DiagnosisSecrecyLevels: VendorSecrecyLevelsSchema,
  DiagnosisActive: OptBool,
  DiagnosisInactiveReason: OptStr,
});

export const DiagnosisEhrExtractSchema = Type.Object({
  ehrId: OptIiPlain,
  ehrSystem: OptIiPlain,
  /** What the read filters and sorts on (docs/contract.md#lab-results-and-diagnoses). */
  timeCreated: OptTsPlain,
  diagnosisMetaData: Type.Optional(DiagnosisMetaDataSchema),
  patient: Type.Optional(vendorPatient(PLAIN_LAYOUT)),
  units: Type.Object({ unit: Type.Array(vendorUnit(PLAIN_LAYOUT)) }),
  careUnit: OptSimpleUnitPlain,
  responsibleUnit: OptSimpleUnitPlain,
  accessZoneUnit: OptSimpleUnitPlain,
  headCareProviderUnit: OptSimpleUnitPlain,
  careProviders: Type.Object({ careProvider: Type.Array(vendorCareProvider(PLAIN_LAYOUT)) }),
  hCMContact: Type.Optional(Type.Object({
    targetId: OptIiPlain,
    contactPerformingUnit: OptStr,
    contactSecrecyLevels: VendorSecrecyLevelsSchema,
    hCMContactInternalID: OptStr,
    hCMContactBegin: OptTsPlain,
    hCMContactEnd: OptTsPlain,
    hCMContactStatus: OptStr,
    hCMContactType: OptStr,
  })),
  diagnoses: Type.Optional(Type.Object({
    diagnosis: Type.Array(DiagnosisSchema),
    action: Type.Array(DiagnosisActionSchema),
  })),
});

/** One element of the diagnoses answer: every diagnosis note of the patient (filtered, oldest first). */
export const DiagnosesSchema = Type.Object({
  diagnosisEHRExtract: Type.Array(DiagnosisEhrExtractSchema),
}, { title: 'DiagnosisEHRExtracts' });

export type Diagnosis = Static<typeof DiagnosisSchema>;
export type DiagnosisEhrExtract = Static<typeof DiagnosisEhrExtractSchema>;
export type Diagnoses = Static<typeof DiagnosesSchema>;
