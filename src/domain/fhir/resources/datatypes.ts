/**
 * The FHIR R4 data types as far as the mapping reads them (docs/upstream-fhir.md), which the
 * resource types' schemas (resource-type.ts) are built of. Objects stay open: a member the mapping
 * does not read is never checked and never answered. What it reads must have the type FHIR gives it,
 * or the answer is refused (502) instead of given a meaning of our own.
 */
import { Type, type Static } from 'typebox';

const Str = Type.Optional(Type.String());

/**
 * `date`, `dateTime` and `instant` as the mapping reads them: a year, a month or a day alone, or a
 * time with seconds (fractions allowed) and an offset. A time without an offset is not FHIR, but it
 * is read as local time (docs/upstream-fhir.md#time), so the pattern admits it.
 */
export const FHIR_TIME_PATTERN = '^\\d{4}(-\\d{2}(-\\d{2}(T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?(Z|[+-]\\d{2}:\\d{2})?)?)?)?$';
export const FhirTime = Type.String({ pattern: FHIR_TIME_PATTERN });
/** `time` (a time of day): `hh:mm:ss`. */
export const FhirTimeOfDay = Type.String({ pattern: '^\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?$' });

/** A code of a required binding: anything else is not the resource as FHIR defines it. */
export const codes = <const C extends string[]>(...values: C) => Type.Union(values.map((v) => Type.Literal(v)));

export const CodingSchema = Type.Object({ system: Str, code: Str, display: Str });
export const CodeableConceptSchema = Type.Object({ coding: Type.Optional(Type.Array(CodingSchema)), text: Str });
export const PeriodSchema = Type.Object({ start: Type.Optional(FhirTime), end: Type.Optional(FhirTime) });

export const IdentifierSchema = Type.Object({
  use: Str,
  system: Str,
  value: Str,
  type: Type.Optional(CodeableConceptSchema),
  period: Type.Optional(PeriodSchema),
});

export const ReferenceSchema = Type.Object({ reference: Str, type: Str, identifier: Type.Optional(IdentifierSchema), display: Str });

export const MetaSchema = Type.Object({
  versionId: Str,
  lastUpdated: Type.Optional(FhirTime),
  security: Type.Optional(Type.Array(CodingSchema)),
  tag: Type.Optional(Type.Array(CodingSchema)),
});

/**
 * The primitive extensions of a decimal `value`, as far as the mapping reads them: FHIR's
 * `rendered-value` (a string) holds the text the EHR wrote the number as (`12,5`; docs/upstream-fhir.md#text-numbers-and-codes).
 */
export const RenderedValueSchema = Type.Object({
  extension: Type.Optional(Type.Array(Type.Object({ url: Type.String(), valueString: Str }))),
});

export const QuantitySchema = Type.Object({
  value: Type.Optional(Type.Number()),
  _value: Type.Optional(RenderedValueSchema),
  // R4's QuantityComparator, a required binding: any other code (`‹`) is no comparison this service can say (helper-219, F4).
  comparator: Type.Optional(Type.Union([Type.Literal('<'), Type.Literal('<='), Type.Literal('>='), Type.Literal('>')])),
  unit: Str,
  system: Str,
  code: Str,
});

export const RangeSchema = Type.Object({ low: Type.Optional(QuantitySchema), high: Type.Optional(QuantitySchema) });
export const MoneySchema = Type.Object({ value: Type.Optional(Type.Number()), currency: Str });
export const AnnotationSchema = Type.Object({ text: Type.String() });
export const AttachmentSchema = Type.Object({ contentType: Str, url: Str, title: Str, data: Str });

const Int = Type.Optional(Type.Integer());

/**
 * The `value[x]` kinds an extension may carry, typed: FHIR R4's primitive types and the common data
 * types a record's extension holds, so a read's new extension is read with the type FHIR gives it
 * without an edit here.
 */
const EXTENSION_VALUES = {
  valueString: Str,
  valueCode: Str,
  valueId: Str,
  valueMarkdown: Str,
  valueUrl: Str,
  valueUri: Str,
  valueCanonical: Str,
  valueOid: Str,
  valueUuid: Str,
  valueBase64Binary: Str,
  valueBoolean: Type.Optional(Type.Boolean()),
  valueInteger: Int,
  valuePositiveInt: Int,
  valueUnsignedInt: Int,
  valueDecimal: Type.Optional(Type.Number()),
  valueDate: Type.Optional(FhirTime),
  valueDateTime: Type.Optional(FhirTime),
  valueInstant: Type.Optional(FhirTime),
  valueTime: Type.Optional(FhirTimeOfDay),
  valueMoney: Type.Optional(MoneySchema),
  valueCoding: Type.Optional(CodingSchema),
  valueCodeableConcept: Type.Optional(CodeableConceptSchema),
  valueIdentifier: Type.Optional(IdentifierSchema),
  valueReference: Type.Optional(ReferenceSchema),
  valuePeriod: Type.Optional(PeriodSchema),
  valueQuantity: Type.Optional(QuantitySchema),
  valueRange: Type.Optional(RangeSchema),
  valueAnnotation: Type.Optional(AnnotationSchema),
  valueAttachment: Type.Optional(AttachmentSchema),
};

/** Extensions are read two levels deep (an extension and its sub-extensions), no deeper. */
export const SubExtensionSchema = Type.Object({ url: Type.String(), ...EXTENSION_VALUES });
export const ExtensionSchema = Type.Object({
  url: Type.String(),
  extension: Type.Optional(Type.Array(SubExtensionSchema)),
  ...EXTENSION_VALUES,
});
export const Extensions = Type.Optional(Type.Array(ExtensionSchema));

export const HumanNameSchema = Type.Object({
  use: Str,
  text: Str,
  family: Str,
  given: Type.Optional(Type.Array(Type.String())),
  /** The primitive extensions of `given`, index by index (`null` where a name has none). */
  _given: Type.Optional(Type.Array(Type.Union([Type.Null(), Type.Object({ extension: Extensions })]))),
  extension: Extensions,
  period: Type.Optional(PeriodSchema),
});

export const AddressSchema = Type.Object({
  use: Str,
  text: Str,
  line: Type.Optional(Type.Array(Type.String())),
  city: Str,
  district: Str,
  postalCode: Str,
  country: Str,
  /** The primitive extensions of `country`: its ISO 3166 code in `iso21090-SC-coding` (docs/upstream-fhir.md, Address). */
  _country: Type.Optional(Type.Object({ extension: Extensions })),
  period: Type.Optional(PeriodSchema),
  extension: Extensions,
});

export const ContactPointSchema = Type.Object({ system: Str, value: Str, use: Str, period: Type.Optional(PeriodSchema) });

/** FHIR's id syntax; it fits the API's ids (`^[A-Za-z0-9._-]{1,64}$`), which are taken from it. */
export const FhirId = Type.String({ pattern: '^[A-Za-z0-9.-]{1,64}$' });

/** What every resource the mapping reads has. */
export const RESOURCE_BASE = { id: FhirId, meta: Type.Optional(MetaSchema) };

/**
 * The optional members a resource's schema is mostly made of, imported under short names
 * (`OptionalString as Str` …) so a schema reads as the resource's layout.
 */
export const OptionalString = Str;
export const OptionalReference = Type.Optional(ReferenceSchema);
export const OptionalConcept = Type.Optional(CodeableConceptSchema);
export const OptionalConcepts = Type.Optional(Type.Array(CodeableConceptSchema));
export const OptionalTime = Type.Optional(FhirTime);
export const OptionalInteger = Int;

export type Coding = Static<typeof CodingSchema>;
export type CodeableConcept = Static<typeof CodeableConceptSchema>;
export type Period = Static<typeof PeriodSchema>;
export type FhirIdentifier = Static<typeof IdentifierSchema>;
export type Reference = Static<typeof ReferenceSchema>;
export type Meta = Static<typeof MetaSchema>;
export type Quantity = Static<typeof QuantitySchema>;
export type Extension = Static<typeof ExtensionSchema>;
export type SubExtension = Static<typeof SubExtensionSchema>;
export type HumanName = Static<typeof HumanNameSchema>;
export type FhirAddress = Static<typeof AddressSchema>;
export type ContactPoint = Static<typeof ContactPointSchema>;
