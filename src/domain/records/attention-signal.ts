/** AttentionSignal (v2, camelCase; CONTRACT §4). */
import { Type, type Static } from 'typebox';
import { OptStr } from './common.js';

export const SIGNAL_TYPES = ['hypersensitivity', 'infection', 'treatment', 'condition', 'other'] as const;
export const SignalTypeSchema = Type.Enum(SIGNAL_TYPES);
export type SignalType = Static<typeof SignalTypeSchema>;

export const AttentionSignalSchema = Type.Object({
  signalId: Type.String(),
  signalType: SignalTypeSchema,
  description: Type.String(),
  severity: OptStr,
  registeredDateTimeInUnix: Type.Integer(),
  validFromInUnix: Type.Optional(Type.Integer()),
  validToInUnix: Type.Optional(Type.Integer()),
  performingUnitName: Type.String(),
});

export type AttentionSignal = Static<typeof AttentionSignalSchema>;
