/**
 * Lab results (operation 11): the vendor's chemistry lab results v2 layout,
 * docs/vendor-layouts.md#chemistry-lab-results-v2-operation-11 (docs/contract.md#lab-results-and-diagnoses),
 * camelCase as the vendor spells it (`IUPAC`, `Email`). The answer is an array of one
 * `{chemistryReportEHRExtract: [...]}`. A result, a range and a pathological flag are text however
 * numeric they look ("5,4", "<5", "0").
 */
import { Type, type Static } from 'typebox';
import { OptStr } from '../../domain/records/common.js';
import {
  OptIiPlain, OptSimpleUnitPlain, OptTsPlain, PLAIN_LAYOUT, vendorCareProvider, vendorPatient, vendorUnit,
} from '../../domain/records/vendor-types.js';


export const TestResultSchema = Type.Object({
  /** When the result was attested (signed); absent while it is preliminary. */
  attestDateTime: OptTsPlain,
  attestingCareProviderId: OptIiPlain,
  IUPAC: OptStr,
  /** "1" pathological, "0" not (the vendor's "false - 0, true - 1"). */
  pathological: OptStr,
  range: OptStr,
  result: OptStr,
  status: OptStr,
  testCommentary: OptStr,
  testId: OptStr,
  testName: OptStr,
  unit: OptStr,
  rcId: OptIiPlain,
});

export const ChemistryReportSchema = Type.Object({
  reportCommentary: OptStr,
  reportDateTime: OptTsPlain,
  reportId: OptStr,
  reportStatus: OptStr,
  reportVersionDateTime: OptTsPlain,
  secrecyClassification: OptStr,
  testResult: Type.Array(TestResultSchema),
  rcId: OptIiPlain,
});

const LabRequestSchema = Type.Object({
  clinicalInformation: Type.Array(Type.Object({ information: OptStr, reply: OptStr })),
  /** A plain string in the vendor's layout, not a TS. */
  collectionDateTime: OptStr,
  collectorsCommentary: OptStr,
  priority: OptStr,
  requestCommentary: OptStr,
  requestDateTime: OptTsPlain,
  requestId: OptStr,
  rcId: OptIiPlain,
});

export const ChemistryReportEhrExtractSchema = Type.Object({
  accessZoneUnit: OptSimpleUnitPlain,
  attestingCareProviders: Type.Object({
    attestingCareProvider: Type.Array(Type.Object({
      careProviderID: OptIiPlain,
      careProviderName: OptStr,
      careProviderType: OptStr,
      providerPosition: Type.Optional(Type.Object({ careProviderPositionID: OptIiPlain, careProviderPositionName: OptStr })),
    })),
  }),
  careProviders: Type.Object({ careProvider: Type.Array(vendorCareProvider(PLAIN_LAYOUT)) }),
  hCMContact: Type.Optional(Type.Object({
    contactPerformingUnit: OptStr,
    /** Here the repeated element itself (in diagnoses a wrapper of levels). */
    contactSecrecyLevels: Type.Array(Type.Object({ secrecyLevel: OptStr })),
    hCMContactInternalID: OptStr,
    hCMContactBegin: OptTsPlain,
    hCMContactEnd: OptTsPlain,
    hCMContactStatus: OptStr,
    hCMContactType: OptStr,
    targetId: OptIiPlain,
  })),
  headCareProviderUnit: OptSimpleUnitPlain,
  patient: Type.Optional(vendorPatient(PLAIN_LAYOUT)),
  performingUnit: OptSimpleUnitPlain,
  receivingUnit: OptSimpleUnitPlain,
  report: Type.Optional(ChemistryReportSchema),
  request: Type.Optional(LabRequestSchema),
  requestingUnit: OptSimpleUnitPlain,
  responsibleUnit: OptSimpleUnitPlain,
  units: Type.Object({ unit: Type.Array(vendorUnit(PLAIN_LAYOUT)) }),
  ehrId: OptIiPlain,
  ehrSystem: OptIiPlain,
  /** What the read filters and sorts on (docs/contract.md#lab-results-and-diagnoses). */
  timeCreated: OptTsPlain,
});

/** One element of the lab-results answer: every report of the patient (filtered, oldest first). */
export const LabResultSchema = Type.Object({
  chemistryReportEHRExtract: Type.Array(ChemistryReportEhrExtractSchema),
}, { title: 'ChemistryReportEHRExtracts' });

export type TestResult = Static<typeof TestResultSchema>;
export type ChemistryReportEhrExtract = Static<typeof ChemistryReportEhrExtractSchema>;
export type LabResult = Static<typeof LabResultSchema>;
