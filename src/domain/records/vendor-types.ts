/**
 * The vendor's data types (ISO 21090 as Cambio Open Services writes them; `spec/vendor-layouts/`),
 * shared by the answers that follow the vendor's layouts: care contacts, attention signals and
 * patient v2. Every member is optional. Members the EHR may send beyond these are dropped.
 */
import { Type } from 'typebox';
import { OptStr } from './common.js';

const OptBool = Type.Optional(Type.Boolean());

/** A TS `value`: 14 digits of local time or 8 of a date (upstream README §1); the mapper refuses other forms. */
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
