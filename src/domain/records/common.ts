/**
 * Building blocks shared by the JSON records. Response schemas list every property instead of
 * setting `additionalProperties: false`: fast-json-stringify then writes only what is listed, so a
 * field the EHR adds later can never leak into an answer.
 */
import { Type, type Static } from 'typebox';

/** `{extension, root}`; the mapper emits it only when both attributes carry a value. */
export const IdentifierSchema = Type.Object({ extension: Type.String(), root: Type.String() });
export type Identifier = Static<typeof IdentifierSchema>;

/** A compact local timestamp (14 digits) or date (8 digits), copied unchanged from the EHR. */
export const TimeValueSchema = Type.Object({ value: Type.String() });
export type TimeValue = Static<typeof TimeValueSchema>;

export const CodeSchema = Type.Object({
  codeSystem: Type.Optional(Type.String()),
  displayName: Type.Optional(Type.Object({ value: Type.String() })),
});

/** One free-form `<Any>`: names are keys, text stays text, nesting stays nesting. */
export const AnyItemSchema = Type.Record(Type.String(), Type.Unknown());
export const AnySchema = Type.Array(AnyItemSchema);

export const XsdVersionSchema = Type.Object({ version: Type.Number() });

export const ResultCodeSchema = Type.Enum(['OK', 'ERROR', 'INFO']);
export type ResultCode = Static<typeof ResultCodeSchema>;

/** Bounds of the v2 epoch-millisecond fields (spec: video meetings). */
export const UNIX_MS_MIN = -9_999_999_999_999;
export const UNIX_MS_MAX = 9_999_999_999_999;
export const UnixMsSchema = Type.Integer({ minimum: UNIX_MS_MIN, maximum: UNIX_MS_MAX });

/** An optional string: most leaves of the EHR records may be absent. */
export const OptStr = Type.Optional(Type.String());
