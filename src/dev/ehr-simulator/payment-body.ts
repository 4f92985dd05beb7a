/** The payment request body (docs/upstream-ehr.md#2-requests-and-answers): `<Payment>` with `Status` PAID and `PaymentType` CASH, CARD or INVOICE, namespace optional. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { PAYMENT_TYPES, type PaymentType } from '../../domain/writes/payment-types.js';

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: true, parseTagValue: false, trimValues: true, processEntities: false });
const DTD_MARKUP = /<!\s*(?:DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

const isXml = (contentType: string | undefined): boolean =>
  /^(application|text)\/xml\s*(;|$)/i.test(contentType?.trim() ?? '');

/** The payment type, or why the body is refused. */
export function parsePayment(contentType: string | undefined, body: string): { paymentType: PaymentType } | { refused: string } {
  const refused = (why: string): { refused: string } => ({ refused: why });
  if (!isXml(contentType)) return refused('payment body must be application/xml');
  if (DTD_MARKUP.test(body) || XMLValidator.validate(body) !== true) return refused('payment body is not well-formed XML');
  const tree = parser.parse(body) as Record<string, unknown>;
  const roots = Object.keys(tree).filter((k) => !k.startsWith('?'));
  const payment = tree.Payment as Record<string, unknown> | undefined;
  if (roots.length !== 1 || typeof payment !== 'object' || payment === null) return refused('payment body must be one Payment');
  if (payment.Status !== 'PAID') return refused('Status must be PAID');
  const type = payment.PaymentType;
  const known = PAYMENT_TYPES.find((t) => t === type);
  if (known === undefined) return refused(`PaymentType must be one of ${PAYMENT_TYPES.join(', ')}`);
  return { paymentType: known };
}
