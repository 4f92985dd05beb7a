// Hostile review helper-139, F1 (remainder): a form of write result a later version writes, read by this one (a
// rollback), was an AuditEvent of outcome 0, "success", though the words said this version cannot show the outcome:
// the patient app counted it among what was done and flagged nothing. Such an event now claims no outcome.
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../../src/domain/access-log/access-log-entry.js';
import { writeResultDisplayName } from '../../../src/domain/access-log/display-names.js';
import { auditEvent } from '../../../src/http/access-log/fhir-audit-event.js';

const TOLVAN = '191212121212';

const entryOf = (outcome: AccessLogEntry['outcome'], writeResult?: string): AccessLogEntry => ({
  time: '20261130100000', timeInUnix: Date.UTC(2026, 10, 30, 9), operation: 'registerPayment',
  operationDisplayName: { sv: 'Betalning', en: 'Payment' }, outcome, basis: 'self',
  clientApplication: { displayName: 'kiosk-1' }, requestId: '',
  ...(writeResult === undefined ? {} : { result: { code: writeResult, displayName: writeResultDisplayName(writeResult) } }),
});
const outcomeOf = (e: AccessLogEntry): [unknown, unknown] => {
  const event = auditEvent(e, TOLVAN) as { outcome?: string; outcomeDesc?: string };
  return [event.outcome, event.outcomeDesc];
};

describe('AuditEvent.outcome claims only what this version knows came of a write', () => {
  it('leaves the outcome out for an answered request\'s result of a form this version does not know', () => {
    expect(outcomeOf(entryOf('allowed', 'PENDING ARRIVAL_REGISTERED'))).toEqual([undefined, 'This version cannot show the outcome']);
    // A refused or failed one keeps what its status says (hostile review helper-144, F2).
    expect(outcomeOf(entryOf('denied', 'PENDING ARRIVAL_REGISTERED'))).toEqual(['4', 'This version cannot show the outcome']);
    expect(outcomeOf(entryOf('failed', 'PENDING'))).toEqual(['8', 'This version cannot show the outcome']);
    // A failed request is 8 whatever its result's code begins with (helper-145, F4: "ERRORV2 X" and a known ERROR were 4).
    for (const code of ['ERRORV2 X', 'ERROR_TIMEOUT', 'ERROR NOT_PAYABLE']) expect([code, outcomeOf(entryOf('failed', code))[0]]).toEqual([code, '8']);
  });

  it('keeps the outcome of every result it knows, and of a request without one', () => {
    expect([
      outcomeOf(entryOf('allowed', 'OK PAYMENT_REGISTERED')), outcomeOf(entryOf('allowed', 'INFO SOMETHING_NEW')),
      outcomeOf(entryOf('allowed', 'ERROR NOT_PAYABLE')), outcomeOf(entryOf('failed', 'UNKNOWN')), outcomeOf(entryOf('allowed')),
    ]).toEqual([
      ['0', 'Payment registered'], ['0', 'Already done'], ['4', 'Not registered: payment is registered only after arrival'],
      ['8', 'Not known whether it was registered: the EHR did not confirm it'], ['0', 'Done'],
    ]);
  });
});
