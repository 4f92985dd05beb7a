/**
 * The people and places of FHIR, as far as the mapping reads them: patients, relatives, staff, units.
 * Every read shares them (a record's patient, author, unit), so they are declared here, not in a read's folder.
 */
import { Type, type Static } from 'typebox';
import {
  AddressSchema, CodeableConceptSchema, ContactPointSchema, HumanNameSchema, IdentifierSchema, OptionalConcepts as Concepts,
  OptionalReference as Ref, OptionalString as Str, OptionalTime as Time, PeriodSchema, ReferenceSchema, RESOURCE_BASE,
} from './datatypes.js';
import { ref, type ResourceTypeDeclarations } from './resource-type.js';

const Identifiers = Type.Optional(Type.Array(IdentifierSchema));
const Names = Type.Optional(Type.Array(HumanNameSchema));
const Telecoms = Type.Optional(Type.Array(ContactPointSchema));
const Addresses = Type.Optional(Type.Array(AddressSchema));

export const PatientSchema = Type.Object({
  resourceType: Type.Literal('Patient'),
  ...RESOURCE_BASE,
  active: Type.Optional(Type.Boolean()),
  identifier: Identifiers,
  name: Names,
  telecom: Telecoms,
  gender: Type.Optional(Type.Union([Type.Literal('male'), Type.Literal('female'), Type.Literal('other'), Type.Literal('unknown')])),
  birthDate: Time,
  deceasedDateTime: Time,
  address: Addresses,
  managingOrganization: Ref,
  link: Type.Optional(Type.Array(Type.Object({ other: ReferenceSchema, type: Type.String() }))),
});

export const RelatedPersonSchema = Type.Object({
  resourceType: Type.Literal('RelatedPerson'),
  ...RESOURCE_BASE,
  active: Type.Optional(Type.Boolean()),
  patient: ReferenceSchema,
  identifier: Identifiers,
  relationship: Concepts,
  name: Names,
  telecom: Telecoms,
  address: Addresses,
  period: Type.Optional(PeriodSchema),
});

export const OrganizationSchema = Type.Object({
  resourceType: Type.Literal('Organization'),
  ...RESOURCE_BASE,
  identifier: Identifiers,
  name: Str,
  partOf: Ref,
  telecom: Telecoms,
  address: Addresses,
});

export const PractitionerSchema = Type.Object({
  resourceType: Type.Literal('Practitioner'),
  ...RESOURCE_BASE,
  identifier: Identifiers,
  name: Names,
  qualification: Type.Optional(Type.Array(Type.Object({ code: CodeableConceptSchema }))),
});

export const PractitionerRoleSchema = Type.Object({
  resourceType: Type.Literal('PractitionerRole'),
  ...RESOURCE_BASE,
  practitioner: Ref,
  organization: Ref,
  code: Type.Optional(Type.Array(CodeableConceptSchema)),
});

export const LocationSchema = Type.Object({
  resourceType: Type.Literal('Location'),
  ...RESOURCE_BASE,
  name: Str,
  address: Type.Optional(AddressSchema),
  physicalType: Type.Optional(CodeableConceptSchema),
  managingOrganization: Ref,
});

export const HealthcareServiceSchema = Type.Object({
  resourceType: Type.Literal('HealthcareService'),
  ...RESOURCE_BASE,
  name: Str,
  providedBy: Ref,
});

export type Patient = Static<typeof PatientSchema>;
export type RelatedPerson = Static<typeof RelatedPersonSchema>;
export type Organization = Static<typeof OrganizationSchema>;
export type Practitioner = Static<typeof PractitionerSchema>;
export type PractitionerRole = Static<typeof PractitionerRoleSchema>;
export type Location = Static<typeof LocationSchema>;
export type HealthcareService = Static<typeof HealthcareServiceSchema>;

/** The patient and the people around them: the API's first types. */
export const PATIENT_TYPES = {
  Patient: {
    schema: PatientSchema,
    summary: null,
    search: { shared: {}, tokens: { identifier: ['identifier'] }, references: { organization: ref(['managingOrganization'], 'Organization') } },
  },
  RelatedPerson: { schema: RelatedPersonSchema, summary: null, search: { shared: {}, tokens: { active: ['active'] }, references: { patient: ref(['patient'], 'Patient') } } },
} as const satisfies ResourceTypeDeclarations;

/** Who and where a record names: served as what a record references (docs/fhir-api.md#scopes). */
export const PARTY_TYPES = {
  Organization: { schema: OrganizationSchema, summary: null, search: { shared: {}, references: { partof: ref(['partOf'], 'Organization') } } },
  Practitioner: { schema: PractitionerSchema, summary: null, search: { shared: {} } },
  PractitionerRole: {
    schema: PractitionerRoleSchema,
    summary: null,
    search: { shared: {}, references: { practitioner: ref(['practitioner'], 'Practitioner'), organization: ref(['organization'], 'Organization') } },
  },
  Location: { schema: LocationSchema, summary: null, search: { shared: {}, references: { organization: ref(['managingOrganization'], 'Organization') } } },
  HealthcareService: { schema: HealthcareServiceSchema, summary: null, search: { shared: {} } },
} as const satisfies ResourceTypeDeclarations;
