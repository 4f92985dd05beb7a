/**
 * Issue 52 item 2: whom a token's scopes reach, one rule for the COS door and /fhir
 * (docs/contract.md#scopes): `patient/` the launch patient only, any other form everyone the person
 * may act for; a client token has no launch patient.
 */
import { describe, expect, it } from 'vitest';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { ScopeGrants } from '../../src/domain/access/scope-grants.js';
import { contextsOfHolder, contextsReaching, launchPatient, reaches } from '../../src/domain/access/scope-reach.js';
import { scopeAliases } from '../../src/domain/access/scopes.js';
import { OPERATION_NAMES, OPERATIONS } from '../../src/domain/operations/table.js';
import { patientRecord } from '../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../fakes/fake-ehr.js';
import { FixedClock } from '../fakes/fixed-clock.js';

const MARTA = '198112189876';
const LILLA = '201701012393';
const TOLVAN = '191212121212';
const IDS = new Map([['lilla-id', LILLA], ['marta-id', MARTA]]);
const idOf = (id: string): string | undefined => IDS.get(id);
/** No operation's records are written as a FHIR type here: only a spelling of an operation's scope counts (scope-grants.test.ts has the types). */
const SPELLINGS_ONLY = new ScopeGrants(() => []);
const operationContexts = SPELLINGS_ONLY.operationContexts.bind(SPELLINGS_ONLY);

describe('launchPatient', () => {
  it('is smart_patient\'s person, else the person; nobody for a client token or an id this service did not make', () => {
    expect(launchPatient({ personId: MARTA, smartPatient: 'lilla-id' }, idOf)).toBe(LILLA);
    expect(launchPatient({ personId: MARTA }, idOf)).toBe(MARTA);
    expect(launchPatient({ personId: MARTA, smartPatient: 'made-up' }, idOf)).toBeUndefined();
    expect(launchPatient({ personId: MARTA, smartPatient: 'lilla-id' }, undefined)).toBeUndefined();
    expect(launchPatient({ smartPatient: 'lilla-id' }, idOf)).toBeUndefined();
  });
});

describe('operationContexts', () => {
  it('puts every patient/ form of every operation\'s scope in patient, every other form in user (person) or system (client)', () => {
    const forms = [...scopeAliases()];
    for (const name of OPERATION_NAMES) {
      const api = OPERATIONS[name].scope.name;
      const counted = [api, ...forms.filter(([, to]) => to === api).map(([from]) => from)];
      // Every scope has a patient/ form, so the rule is asked of every operation.
      expect([name, counted.some((form) => form.startsWith('patient/'))]).toEqual([name, true]);
      for (const form of counted) {
        const launchForm = form.startsWith('patient/');
        expect([name, form, [...operationContexts([form], name, { personId: MARTA })]]).toEqual([name, form, [launchForm ? 'patient' : 'user']]);
        expect([name, form, [...operationContexts([form], name, {})]]).toEqual([name, form, [launchForm ? 'patient' : 'system']]);
      }
    }
  });

  it('grants nothing for another operation\'s scope, a system/ form or a v2 form the COS door does not fold', () => {
    for (const form of ['user/Appointment-read', 'system/Appointment.write', 'patient/Appointment.u', 'patient/*.write', 'patient/Appointment.cruds']) {
      expect([form, operationContexts([form], 'changeAppointment', { personId: MARTA }).size]).toEqual([form, 0]);
    }
  });

  it('keeps both contexts when a token has both forms', () => {
    expect([...operationContexts(['patient/Appointment.write', 'user/Appointment.write'], 'changeAppointment', { personId: MARTA })].sort()).toEqual(['patient', 'user']);
  });
});

describe('reaches: the rule', () => {
  const launched = { personId: MARTA, smartPatient: 'lilla-id' };
  const decide = (granted: ReadonlyArray<'patient' | 'user' | 'system'>, holder: { personId?: string; smartPatient?: string }, patient: string) =>
    reaches(new Set(granted), contextsReaching(holder, launchPatient(holder, idOf), patient));

  it('lets patient/ alone reach the launch patient only', () => {
    expect([LILLA, MARTA, TOLVAN].map((p) => decide(['patient'], launched, p))).toEqual([true, false, false]);
    expect([LILLA, MARTA, TOLVAN].map((p) => decide(['patient'], { personId: MARTA }, p))).toEqual([false, true, false]);
    expect([LILLA, MARTA].map((p) => decide(['patient'], { personId: MARTA, smartPatient: 'made-up' }, p))).toEqual([false, false]);
  });

  it('lets user/ reach every patient (whether the person may act for each is the delegation\'s question), and grants a client token system/ only', () => {
    expect([LILLA, MARTA, TOLVAN].map((p) => decide(['user'], launched, p))).toEqual([true, true, true]);
    expect([LILLA, MARTA, TOLVAN].map((p) => decide(['patient', 'user'], launched, p))).toEqual([true, true, true]);
    expect(decide(['system'], {}, TOLVAN)).toBe(true);
    expect(decide(['patient'], {}, TOLVAN)).toBe(false);
    expect(contextsOfHolder({})).toEqual(['system']);
    expect(contextsOfHolder({ personId: MARTA })).toEqual(['patient', 'user']);
  });
});

describe('PatientAccessPolicy with the token\'s scopes', () => {
  const ehr = new FakeEhr()
    .withPatient(TOLVAN, { getPatient: [patientRecord(TOLVAN)] })
    .withPatient(MARTA, { getPatient: [patientRecord(MARTA)] })
    .withPatient(LILLA, { getPatient: [patientRecord(LILLA)] });
  const registry = new FakeRegistry()
    .grant(MARTA, { patient: LILLA, type: 'guardian', validFrom: '20170101', validTo: '20341231' })
    .grant(MARTA, { patient: TOLVAN, type: 'power-of-attorney', validFrom: '20240115' });
  const policy = new PatientAccessPolicy(ehr, registry, new FixedClock(Date.UTC(2026, 10, 21, 9, 0)), 'Europe/Stockholm', idOf);
  const denied = expect.objectContaining({ code: 'ACCESS_DENIED' });

  it('refuses, as a refused delegation, a patient a patient/-only grant does not reach, before asking the registry', async () => {
    const caller = { personId: MARTA, smartPatient: 'lilla-id', granted: new Set(['patient'] as const) };
    await expect(policy.resolve(caller, LILLA)).resolves.toMatchObject({ patientId: LILLA, basis: 'guardian' });
    const lookups = registry.lookups;
    await expect(policy.resolve(caller, TOLVAN)).rejects.toEqual(denied);
    await expect(policy.resolve(caller, MARTA)).rejects.toEqual(denied);
    expect(registry.lookups).toBe(lookups);
  });

  it('still asks the registry for the launch patient: a pick is no delegation', async () => {
    const stranger = { personId: TOLVAN, smartPatient: 'lilla-id', granted: new Set(['patient'] as const) };
    await expect(policy.resolve(stranger, LILLA)).rejects.toEqual(denied);
  });

  it('decides as before for a user/ grant, and when the caller decided the scopes itself (no granted)', async () => {
    for (const caller of [{ personId: MARTA, smartPatient: 'lilla-id', granted: new Set(['user'] as const) }, { personId: MARTA, smartPatient: 'lilla-id' }]) {
      await expect(policy.resolve(caller, TOLVAN)).resolves.toMatchObject({ basis: 'power-of-attorney' });
    }
  });
});
