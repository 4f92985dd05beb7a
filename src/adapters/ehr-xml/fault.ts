/** Fault (ns urn:example:ehr:fault:1), the body of an EHR error answer. */
import type { DocumentInput } from './document-pieces.js';
import { documentType, plainContext } from './document.js';
import { STR } from './leaves.js';
import { obj, req } from './shape.js';

// Message is never read: it is operator text that may hold an identity number.
export const FAULT_DOCUMENT = documentType('Fault', obj({ Code: req(STR) }));

export function mapFault(xml: DocumentInput): { code: string } {
  return { code: FAULT_DOCUMENT.map(xml, plainContext()).Code as string };
}
