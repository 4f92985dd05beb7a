/**
 * The vendor's data types (ISO 21090 as Cambio Open Services writes them; docs/vendor-layouts.md),
 * shared by the answers that follow the vendor's layouts: care contacts, attention signals and
 * patient v2. Every member is optional. Members the EHR may send beyond these are dropped.
 */
import { Type } from 'typebox';
import { OptStr } from './common.js';

const OptBool = Type.Optional(Type.Boolean());

/** A TS `value`: 14 digits of local time or 8 of a date (docs/upstream-ehr.md#1-rules-every-document-follows); the mapper refuses other forms. */
export const COMPACT_TIME_PATTERN = '^(?:\\d{8}|\\d{14})$';

/** HXIT and ANY, which every ISO 21090 type extends. */
const HXIT_ANY = {
  validTimeLow: OptStr,
  validTimeHigh: OptStr,
  controlActRoot: OptStr,
  controlActExtension: OptStr,
  nullFlavor: OptStr,
  flavorId: OptStr,
  updateMode: OptStr,
};

/**
 * II, an instance identifier: `root` (an OID) and `extension`, usually. The care contacts and
 * patient v2 layouts list the ISO 21090 members; the attention signal (and journal note) layout
 * lists fewer, and `$self` (text beside the attributes): each answer has the II its layout has.
 */
const II_MEMBERS = {
  root: OptStr,
  extension: OptStr,
  identifierName: OptStr,
  displayable: OptBool,
  scope: OptStr,
  reliability: OptStr,
};

export const IiSchema = Type.Object({ ...HXIT_ANY, value: OptStr, ...II_MEMBERS }, { title: 'II' });

export const IiWithTextSchema = Type.Object({ $self: OptStr, ...II_MEMBERS }, { title: 'IIWithText' });

/** TS, a point in time: `value` is a compact local time (14 digits) or date (8 digits). */
export const TsSchema = Type.Object({
  ...HXIT_ANY,
  value: Type.Optional(Type.String({ pattern: COMPACT_TIME_PATTERN })),
}, { title: 'TS' });

/** A unit named by its HSA id and its local id. */
export const SimpleUnitSchema = Type.Object({
  unitID: Type.Optional(IiSchema),
  unitLocalID: Type.Optional(IiSchema),
}, { title: 'SimpleUnit' });

export const SimpleUnitWithTextSchema = Type.Object({
  unitID: Type.Optional(IiWithTextSchema),
  unitLocalID: Type.Optional(IiWithTextSchema),
}, { title: 'SimpleUnitWithText' });

/** CD, a coded concept (an ATC code of a hypersensitivity). */
export const CdSchema = Type.Object({
  Code: OptStr,
  CodeSystem: OptStr,
  CodeSystemName: OptStr,
  CodeSystemVersion: OptStr,
  ValueSet: OptStr,
  ValueSetVersion: OptStr,
  Id: OptStr,
  DisplayName: Type.Optional(Type.Object({ value: OptStr, language: OptStr })),
}, { title: 'CD' });

export const OptIi = Type.Optional(IiSchema);
export const OptIiWithText = Type.Optional(IiWithTextSchema);
export const OptTs = Type.Optional(TsSchema);
export const OptSimpleUnit = Type.Optional(SimpleUnitSchema);
export const OptSimpleUnitWithText = Type.Optional(SimpleUnitWithTextSchema);
export { OptBool };

/** The vendor's given name: `qualifier` CL marks the name in use. */
export const VendorGivenNameSchema = Type.Object({ qualifier: OptStr, value: OptStr });

/** `{secrecyLevel: [...]}`: a wrapper of secrecy levels (care contacts, diagnoses). */
export const VendorSecrecyLevelsSchema = Type.Object({ secrecyLevel: Type.Array(Type.String()) });

/**
 * II, TS and SimpleUnit as the newer layouts list them (lab results v2, diagnosis v2): without the
 * HXIT members the care contacts layout carries.
 */
export const IiPlainSchema = Type.Object({ value: OptStr, ...II_MEMBERS }, { title: 'IIPlain' });
export const TsPlainSchema = Type.Object({ value: Type.Optional(Type.String({ pattern: COMPACT_TIME_PATTERN })) }, { title: 'TSPlain' });
export const SimpleUnitPlainSchema = Type.Object({
  unitID: Type.Optional(IiPlainSchema),
  unitLocalID: Type.Optional(IiPlainSchema),
}, { title: 'SimpleUnitPlain' });
/** The three above as optional members. */
export const OptIiPlain = Type.Optional(IiPlainSchema);
export const OptTsPlain = Type.Optional(TsPlainSchema);
export const OptSimpleUnitPlain = Type.Optional(SimpleUnitPlainSchema);

/** The identifier and unit types of one layout family, so the shared parts below are built with its own. */
interface LayoutTypes { ii: typeof IiSchema | typeof IiPlainSchema; unit: typeof SimpleUnitSchema | typeof SimpleUnitPlainSchema }

/** The patient as the vendor's v2 layouts name them (care contacts, lab results, diagnoses). */
export const vendorPatient = ({ ii }: LayoutTypes) => Type.Object({
  patientID: Type.Optional(ii),
  patientInternalID: OptStr,
  patientProtectedId: OptBool,
  patientSecrecyGroups: Type.Object({ group: Type.Array(Type.String()) }),
  patientName: Type.Optional(Type.Object({
    patientFamilyName: OptStr,
    patientMiddleName: OptStr,
    patientGivenName: Type.Array(VendorGivenNameSchema),
  })),
});

/** A care unit with its contact details (`units.unit[]` of the v2 layouts). */
export const vendorUnit = ({ ii }: LayoutTypes) => Type.Object({
  unitID: Type.Optional(ii),
  unitLocalID: Type.Optional(ii),
  unitInternalID: OptStr,
  unitName: OptStr,
  unitSecrecyGroups: Type.Object({ group: Type.Array(Type.String()) }),
  accessZones: Type.Object({ accessZoneID: Type.Array(ii) }),
  headCareProviderUnitID: Type.Optional(ii),
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

/** A member of staff (`careProviders.careProvider[]` of the v2 layouts). */
export const vendorCareProvider = ({ ii, unit }: LayoutTypes) => Type.Object({
  careProviderType: OptStr,
  careProviderID: Type.Optional(ii),
  careProviderInternalID: OptStr,
  careProviderName: OptStr,
  careProviderPosition: Type.Optional(Type.Object({ careProviderPositionID: Type.Optional(ii), careProviderPositionName: OptStr })),
  careProviderUnit: Type.Optional(unit),
});

/** The types of the care contacts layout, and of the newer lab results and diagnosis layouts. */
export const CONTACT_LAYOUT = { ii: IiSchema, unit: SimpleUnitSchema } as const;
export const PLAIN_LAYOUT = { ii: IiPlainSchema, unit: SimpleUnitPlainSchema } as const;
