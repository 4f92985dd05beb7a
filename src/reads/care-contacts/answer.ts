/**
 * Care contacts (operation 6, api-version v2): the vendor's layout, docs/vendor-layouts.md#care-contacts-v2-operation-6
 * (docs/contract.md#reads), camelCase as the vendor spells it (`Email` capitalised inside `emailAddresses`).
 * The answer is an array of one `{contactEHRExtract: [...]}`; members that are `any` in the tree are
 * typed as the vendor's original document types them (TS, II, SimpleUnit).
 */
import { Type, type Static } from 'typebox';
import { OptStr } from '../../domain/records/common.js';
import {
  OptBool, OptIi, OptSimpleUnit, OptTs, CONTACT_LAYOUT, vendorCareProvider, vendorPatient, VendorSecrecyLevelsSchema, vendorUnit,
} from '../../domain/records/vendor-types.js';


export const ContactActionSchema = Type.Object({
  actionID: OptStr,
  actionType: OptStr,
  actionMain: OptBool,
  actionCareService: OptStr,
  actionVisitType: OptStr,
  actionCategory1: OptStr,
  actionCategory2: OptStr,
  actionStatus: OptStr,
  actionStatusConfigurationId: OptStr,
  actionBeginDateTime: OptTs,
  actionEndDateTime: OptTs,
  actionSecrecyLevels: VendorSecrecyLevelsSchema,
});

export const ContactSchema = Type.Object({
  rcId: OptIi,
  contactInternalID: OptStr,
  /** The performing unit's internal id here, a SimpleUnit beside `contact`. */
  contactPerformingUnit: OptStr,
  contactVersionDateTime: OptTs,
  contactTypeOfVisit: OptStr,
  contactVisitType: OptStr,
  contactCategory1: OptStr,
  contactCategory2: OptStr,
  contactStatus: OptStr,
  contactStatusConfigurationId: OptStr,
  contactActive: OptBool,
  /** What the read filters and sorts on (docs/contract.md#reads). */
  contactBeginDateTime: OptTs,
  contactEndDateTime: OptTs,
  contactShareInfo: OptBool,
  contactRoom: OptStr,
  contactBed: OptStr,
  contactHomeleaveBeginDateTime: OptTs,
  contactHomeleaveEndDateTime: OptTs,
  /** Text, however numeric: "200". */
  contactPatientFee: OptStr,
  contactSecrecyLevels: VendorSecrecyLevelsSchema,
  actions: Type.Object({ action: Type.Array(ContactActionSchema) }),
  discharge: Type.Optional(Type.Object({
    dischargeDestination: OptStr,
    dischargeDateTime: OptTs,
    deceasedDateTime: OptTs,
    postMortemRequired: OptBool,
  })),
});

export const ContactEhrExtractSchema = Type.Object({
  ehrId: OptIi,
  ehrSystem: OptIi,
  timeCreated: OptTs,
  contact: Type.Optional(ContactSchema),
  careCommitment: Type.Optional(Type.Object({
    careCommitmentID: OptStr,
    careCommitmentDate: OptTs,
    careCommitmentClassification: OptStr,
  })),
  patient: Type.Optional(vendorPatient(CONTACT_LAYOUT)),
  units: Type.Object({ unit: Type.Array(vendorUnit(CONTACT_LAYOUT)) }),
  contactPerformingUnit: OptSimpleUnit,
  contactResponsibleUnit: OptSimpleUnit,
  contactAccessZoneUnit: OptSimpleUnit,
  contactHeadCareProviderUnit: OptSimpleUnit,
  contactTechnicalUnit: OptSimpleUnit,
  careProviders: Type.Object({ careProvider: Type.Array(vendorCareProvider(CONTACT_LAYOUT)) }),
});

/** One element of the care-contacts answer: every contact of the patient (filtered, oldest first). */
export const CareContactSchema = Type.Object({
  contactEHRExtract: Type.Array(ContactEhrExtractSchema),
}, { title: 'ContactEHRExtracts' });

export type ContactEhrExtract = Static<typeof ContactEhrExtractSchema>;
export type CareContact = Static<typeof CareContactSchema>;
