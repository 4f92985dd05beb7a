import { ResultRecordSchema } from '../records/index.js';
import { WHO } from './docs-text.js';
import type { Write } from './operation.js';
import { NoQuery, PaymentBody } from './parameters.js';

/** Operation 1: a paid visit. */
export const registerPayment: Write = {
  number: 1,
  handler: 'payment',
  method: 'POST',
  scope: { name: 'user/Payment-write', description: 'Register that an appointment is paid', aliases: ['user/PaymentNotice.write', 'patient/PaymentNotice.write'] },
  displayName: { sv: 'Betalning av besök', en: 'Payment for a visit' },
  errorShape: 'status',
  path: '/patients/paymentnotice/',
  vendorPaths: ['/api/open/paymentnotice/'],
  query: NoQuery,
  body: PaymentBody,
  answer: { item: ResultRecordSchema, schemaName: 'ResultRecord', array: true },
  docs: {
    tag: { name: 'Payments', description: 'Register that an arrived appointment has been paid.' },
    summary: 'Register that an appointment is paid',
    description: 'Marks the visit of an appointment as `PAID`, by cash, card or invoice. The appointment must already be marked as arrived. '
      + 'The outcome is in the answer, not in the status code: `OK` when the payment was registered, `INFO` when it already was '
      + '(repeating the call is harmless), `ERROR` with a comment when it cannot be done (unknown appointment, not arrived yet, cancelled). '
      + WHO,
    success: 'The outcome, in an array of one ResultRecord: OK, INFO (already paid) or ERROR with a comment.',
  },
};
