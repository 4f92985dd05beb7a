/**
 * Care contacts (operation 6, api-version v2): the vendor's layout, `spec/vendor-layouts/care-contacts-v2.txt`
 * (CONTRACT §4), camelCase as the vendor spells it (`Email` capitalised inside `emailAddresses`).
 * The answer is an array of one `{contactEHRExtract: [...]}`; members that are `any` in the tree are
 * typed as the vendor's original document types them (TS, II, SimpleUnit).
 */
import { Type, type Static } from 'typebox';
import { OptStr } from './common.js';
import { IiSchema, OptBool, OptIi, OptSimpleUnit, OptTs, VendorGivenNameSchema } from './vendor-types.js';

const SecrecyLevelsSchema = Type.Object({ secrecyLevel: Type.Array(Type.String()) });

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
  actionSecrecyLevels: SecrecyLevelsSchema,
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
  /** What the read filters and sorts on (CONTRACT §4). */
  contactBeginDateTime: OptTs,
  contactEndDateTime: OptTs,
  contactShareInfo: OptBool,
  contactRoom: OptStr,
  contactBed: OptStr,
  contactHomeleaveBeginDateTime: OptTs,
  contactHomeleaveEndDateTime: OptTs,
  /** Text, however numeric: "200". */
  contactPatientFee: OptStr,
  contactSecrecyLevels: SecrecyLevelsSchema,
  actions: Type.Object({ action: Type.Array(ContactActionSchema) }),
  discharge: Type.Optional(Type.Object({
    dischargeDestination: OptStr,
    dischargeDateTime: OptTs,
    deceasedDateTime: OptTs,
    postMortemRequired: OptBool,
  })),
});

const ContactUnitSchema = Type.Object({
  unitID: OptIi,
  unitLocalID: OptIi,
  unitInternalID: OptStr,
  unitName: OptStr,
  unitSecrecyGroups: Type.Object({ group: Type.Array(Type.String()) }),
  accessZones: Type.Object({ accessZoneID: Type.Array(IiSchema) }),
  headCareProviderUnitID: OptIi,
  phoneNumbers: Type.Object({ phone: Type.Array(Type.Object({ phoneType: OptStr, phoneNumber: OptStr, phoneComment: OptStr })) }),
  emailAddresses: Type.Object({ Email: Type.Array(Type.Object({ EmailType: OptStr, EmailAddress: OptStr, EmailComment: OptStr })) }),
  unitAddresses: Type.Object({
    unitAddress: Type.Array(Type.Object({
      unitAddressType: OptStr,
      unitAddressAddress: OptStr,
      unitAddressPostcode: OptStr,
      unitAddressCity: OptStr,
      unitAddressCounty: OptStr,
      unitAddressCountry: OptStr,
      unitAddressGeographicalPlace: OptStr,
      unitAddressComment: OptStr,
    })),
  }),
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
  patient: Type.Optional(Type.Object({
    patientID: OptIi,
    patientInternalID: OptStr,
    patientProtectedId: OptBool,
    patientSecrecyGroups: Type.Object({ group: Type.Array(Type.String()) }),
    patientName: Type.Optional(Type.Object({
      patientFamilyName: OptStr,
      patientMiddleName: OptStr,
      patientGivenName: Type.Array(VendorGivenNameSchema),
    })),
  })),
  units: Type.Object({ unit: Type.Array(ContactUnitSchema) }),
  contactPerformingUnit: OptSimpleUnit,
  contactResponsibleUnit: OptSimpleUnit,
  contactAccessZoneUnit: OptSimpleUnit,
  contactHeadCareProviderUnit: OptSimpleUnit,
  contactTechnicalUnit: OptSimpleUnit,
  careProviders: Type.Object({
    careProvider: Type.Array(Type.Object({
      careProviderType: OptStr,
      careProviderID: OptIi,
      careProviderInternalID: OptStr,
      careProviderName: OptStr,
      careProviderPosition: Type.Optional(Type.Object({ careProviderPositionID: OptIi, careProviderPositionName: OptStr })),
      careProviderUnit: OptSimpleUnit,
    })),
  }),
});

/** One element of the care-contacts answer: every contact of the patient (filtered, oldest first). */
export const CareContactSchema = Type.Object({
  contactEHRExtract: Type.Array(ContactEhrExtractSchema),
}, { title: 'ContactEHRExtracts' });

export type ContactEhrExtract = Static<typeof ContactEhrExtractSchema>;
export type CareContact = Static<typeof CareContactSchema>;
