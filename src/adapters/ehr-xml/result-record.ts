/** ResultRecord (ns urn:example:ehr:result:1), the EHR's answer to a write. */
import type { DocumentInput } from './document-pieces.js';
import { documentType, plainContext } from './document.js';
import { ANY } from './free-form.js';
import { STR } from './leaves.js';
import { RESULT_CODE, type ResultCodeValue } from './result-code.js';
import { many, obj } from './shape.js';

export const RESULT_DOCUMENT = documentType('ResultRecord', obj({ ResultCode: RESULT_CODE, Comment: STR, Any: many(ANY) }));

/** The stable reason is `Any/ReasonCode`; the Comment is Swedish text for people, not for parsing. */
export function mapResultRecord(xml: DocumentInput): { resultCode: ResultCodeValue; reasonCode: string | undefined; comment?: string } {
  const mapped = RESULT_DOCUMENT.map(xml, plainContext());
  const reason = (mapped.Any as Record<string, unknown>[]).map((a) => a.ReasonCode).find((r) => typeof r === 'string');
  const result: { resultCode: ResultCodeValue; reasonCode: string | undefined; comment?: string } = {
    resultCode: mapped.ResultCode as ResultCodeValue,
    reasonCode: reason as string | undefined,
  };
  if (typeof mapped.Comment === 'string') result.comment = mapped.Comment;
  return result;
}
