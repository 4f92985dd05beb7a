/** ResultRecord, the answer of the two writes (the payment answer wraps it in an array). */
import { Type, type Static } from 'typebox';
import { AnySchema, OptStr, ResultCodeSchema } from './common.js';

export const ResultRecordSchema = Type.Object({
  ResultCode: ResultCodeSchema,
  Comment: OptStr,
  Any: AnySchema,
});

export type ResultRecord = Static<typeof ResultRecordSchema>;
