/** The FHIR documents around the resources: a search's Bundle, the CapabilityStatement, an OperationOutcome. */
import { Type, type Static } from 'typebox';

const Str = Type.Optional(Type.String());
const Named = Type.Array(Type.Object({ name: Type.String() }));

export const BundleSchema = Type.Object({
  resourceType: Type.Literal('Bundle'),
  type: Str,
  link: Type.Optional(Type.Array(Type.Object({ relation: Type.String(), url: Type.String() }))),
  entry: Type.Optional(Type.Array(Type.Object({
    fullUrl: Str,
    search: Type.Optional(Type.Object({ mode: Str })),
    resource: Type.Optional(Type.Object({ resourceType: Type.String(), id: Str })),
  }))),
});

export const CapabilityStatementSchema = Type.Object({
  resourceType: Type.Literal('CapabilityStatement'),
  fhirVersion: Type.String(),
  rest: Type.Optional(Type.Array(Type.Object({
    mode: Str,
    searchParam: Type.Optional(Named),
    resource: Type.Optional(Type.Array(Type.Object({
      type: Type.String(),
      searchParam: Type.Optional(Named),
      interaction: Type.Optional(Type.Array(Type.Object({ code: Type.String() }))),
      versioning: Str,
      conditionalCreate: Type.Optional(Type.Boolean()),
    }))),
  }))),
});

export const OperationOutcomeSchema = Type.Object({
  resourceType: Type.Literal('OperationOutcome'),
  issue: Type.Array(Type.Object({ severity: Type.String(), code: Type.String() })),
});

export type Bundle = Static<typeof BundleSchema>;
export type BundleEntry = NonNullable<Bundle['entry']>[number];
export type CapabilityStatement = Static<typeof CapabilityStatementSchema>;
export type OperationOutcome = Static<typeof OperationOutcomeSchema>;
