/**
 * The access log as FHIR AuditEvents (docs/contract.md §11, THREATS 62–64): a change of a grant is a change of who may
 * read the record, shown as one (C a grant made, U accepted or declined, D ended) and never as a read; listing the
 * grants and reading one are reads. Failed before: every sharing step was action E, subtype search, PatientRead.
 */
import { describe, expect, it } from 'vitest';
import type { AccessLogEntry } from '../../src/domain/access-log/access-log-entry.js';
import { changesPatientData, OPERATION_NAMES, OPERATIONS, READ_NAMES } from '../../src/domain/operations/table.js';
import { auditEvent } from '../../src/http/access-log/fhir-audit-event.js';

const GRANTOR = '191212121212';

const entryOf = (operation: string): AccessLogEntry => ({
  time: '20261126120000', timeInUnix: 1_795_694_400_000, operation,
  operationDisplayName: { sv: 'x', en: 'x' }, outcome: 'allowed', basis: 'self',
  clientApplication: { displayName: 'Vårdappen', clientId: 'patient-app' }, requestId: '0b6f3c1e-5d0a-4a57-9d0e-2f8f1c7a9b42',
});

const EXPECTED: ReadonlyArray<readonly [string, string, string, boolean]> = [
  ['listProxies', 'E', 'search', false],
  ['getProxy', 'E', 'search', false],
  ['grantProxy', 'C', 'create', true],
  ['acceptProxy', 'U', 'update', true],
  ['declineProxy', 'U', 'update', true],
  ['revokeProxy', 'D', 'delete', true],
];

describe('a change of a grant is audited as a change, listing and reading grants as reads', () => {
  it.each(EXPECTED)('%s: AuditEvent action %s, interaction %s, changes %s', (operation, action, interaction, changes) => {
    expect(changesPatientData(operation)).toBe(changes);
    const event = auditEvent(entryOf(operation), GRANTOR) as {
      action: string; subtype: Array<{ code: string }>; meta: { profile: string[] };
    };
    expect(event.action).toBe(action);
    expect(event.subtype[0]?.code).toBe(interaction);
    expect(event.meta.profile[0]).toMatch(changes ? /PatientUpdate$/ : /PatientRead$/);
  });

  it('covers every sharing operation of the table, and leaves the reads and the writes as they were', () => {
    const sharing = OPERATION_NAMES.filter((name) => OPERATIONS[name].handler === 'proxy');
    expect([...sharing].sort()).toEqual(EXPECTED.map(([name]) => name).sort());
    for (const read of [...READ_NAMES, 'getAccessLog', 'not-an-operation']) {
      expect([read, changesPatientData(read), (auditEvent(entryOf(read), GRANTOR) as { action: string }).action]).toEqual([read, false, 'E']);
    }
    for (const write of ['registerPayment', 'changeAppointment']) {
      expect([write, changesPatientData(write), (auditEvent(entryOf(write), GRANTOR) as { action: string }).action]).toEqual([write, true, 'U']);
    }
  });
});
