import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePayment } from '../../src/dev/ehr-simulator/payment-body.js';
import { ADULT, startSimulatedEhr, type SimulatedEhr } from './ehr-xml-http/simulated-ehr.js';
import { AT_ANY_TIME } from '../../src/domain/writes/arrival-window.js';

const XML = 'application/xml; charset=utf-8';
const body = (type: string): string => `<Payment xmlns="urn:example:ehr:payment:1"><Status>PAID</Status><PaymentType>${type}</PaymentType></Payment>`;

describe('issue 13 item 2: INVOICE payments upstream (docs/upstream-ehr.md#2-requests-and-answers)', () => {
  let t: SimulatedEhr;
  beforeAll(async () => {
    t = await startSimulatedEhr();
  });
  afterAll(() => t.close());

  it('issue 13 item 2: the simulator reads INVOICE as a payment type, and still refuses any other', () => {
    expect(parsePayment(XML, body('INVOICE'))).toEqual({ paymentType: 'INVOICE' });
    for (const type of ['CASH', 'CARD']) expect(parsePayment(XML, body(type))).toEqual({ paymentType: type });
    for (const type of ['invoice', 'SWISH', '']) expect(parsePayment(XML, body(type))).toHaveProperty('refused');
  });

  it('issue 13 item 2: the xml-http adapter sends INVOICE upstream and the simulator registers it', async () => {
    const bookings = await readFile(path.join(t.dataDir, 'patients', ADULT, 'bookings.xml'), 'utf8');
    const contactId = /<ContactId>([^<]+)<\/ContactId>/.exec(bookings)?.[1] ?? '';
    const ehr = t.adapter();
    await ehr.registerArrival(ADULT, contactId, AT_ANY_TIME);
    await expect(ehr.registerPayment(ADULT, contactId, 'INVOICE')).resolves.toEqual({ resultCode: 'OK', reasonCode: 'PAYMENT_REGISTERED' });
    await expect(ehr.registerPayment(ADULT, contactId, 'CARD')).resolves.toEqual({ resultCode: 'INFO', reasonCode: 'ALREADY_PAID' });
  });
});
