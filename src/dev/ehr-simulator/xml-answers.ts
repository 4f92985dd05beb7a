/** The simulator's own XML: empty documents, Faults and ResultRecords, as a real EHR writes them (docs/upstream-ehr.md#2-requests-and-answers, #3-documents). */
import type { EhrWriteResult } from '../../domain/writes/write-outcomes.js';
import { DOCUMENTS, type DocumentKind } from '../../adapters/ehr-xml/documents.js';
import { RELATIONSHIPS_NS } from '../demo-data/ix.js';
import { escapeXml } from '../demo-data/xml.js';

export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

export interface Answer {
  status: number;
  body: string;
  /** The body's UTF-8 bytes, when they were already made (kept-documents.ts); sent instead of encoding `body` again. */
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** The answer's bytes: kept ones (or a file's that are not UTF-8, sent as they are), else its body encoded. */
export const bytesOf = (answer: Answer): Buffer => answer.bytes ?? Buffer.from(answer.body, 'utf8');

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const emptyDocument = (kind: DocumentKind): string =>
  `${DECLARATION}<${DOCUMENTS[kind].reading.document.root} xmlns="${DOCUMENTS[kind].namespace}"/>\n`;

export const emptyRelationships = (actorId: string): string =>
  `${DECLARATION}<Relationships xmlns="${RELATIONSHIPS_NS}" actor="${escapeXml(actorId)}"/>\n`;

export type FaultCode =
  | 'BAD_REQUEST' | 'PATIENT_NOT_FOUND' | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'INTERNAL_ERROR' | 'UNAVAILABLE';

/** A Fault; `message` is operator text and may name a patient, exactly as a real EHR's may. */
export function fault(status: number, code: FaultCode, message: string): Answer {
  return {
    status,
    body: `${DECLARATION}<Fault xmlns="urn:example:ehr:fault:1"><Code>${code}</Code><Message>${escapeXml(message)}</Message></Fault>\n`,
  };
}

const COMMENTS: Readonly<Record<string, string>> = {
  ARRIVAL_REGISTERED: 'Ankomsten är registrerad.',
  ALREADY_ARRIVED: 'Patienten är redan ankomstregistrerad; inget ändrades.',
  PAYMENT_REGISTERED: 'Betalningen är registrerad.',
  ALREADY_PAID: 'Besöket är redan betalt; inget ändrades.',
  CONTACT_NOT_FOUND: 'Besöket finns inte för patienten.',
  CONTACT_CANCELLED: 'Besöket är avbokat.',
  NOT_PAYABLE: 'Besöket kan inte betalas innan patienten har ankommit.',
};

export function resultRecord(result: EhrWriteResult): Answer {
  const reason = result.reasonCode ?? '';
  const comment = COMMENTS[reason] ?? 'Åtgärden kunde inte utföras.';
  const any = reason === '' ? '' : `<Any><ReasonCode>${escapeXml(reason)}</ReasonCode></Any>`;
  return {
    status: 200,
    body: `${DECLARATION}<ResultRecord xmlns="urn:example:ehr:result:1"><ResultCode>${result.resultCode}</ResultCode>`
      + `<Comment>${escapeXml(comment)}</Comment>${any}</ResultRecord>\n`,
  };
}
