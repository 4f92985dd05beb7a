/** How a visit was paid: the spec's CASH and CARD, and the vendor's INVOICE (docs/contract.md#shapes). */
export const PAYMENT_TYPES = ['CASH', 'CARD', 'INVOICE'] as const;
export type PaymentType = typeof PAYMENT_TYPES[number];
