import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryGrantStore } from '../../../src/adapters/proxy-grants/memory-grant-store.js';
import { reachesOperation } from '../../../src/domain/access/operation-reach.js';
import { PatientAccessPolicy } from '../../../src/domain/access/patient-access.js';
import { peopleToOpen } from '../../../src/domain/access/people-to-open.js';
import { OPERATION_NAMES, READ_NAMES } from '../../../src/domain/operations/table.js';
import { categoryOf, PROXY_CATEGORIES } from '../../../src/domain/proxies/categories.js';
import { ProxyDelegation } from '../../../src/domain/proxies/proxy-delegation.js';
import { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { ReadPatientData } from '../../../src/domain/use-cases/read-patient-data.js';
import { patientRecord } from '../../fakes/builders.js';
import { FakeEhr, FakeRegistry } from '../../fakes/fake-ehr.js';
import { FixedClock } from '../../fakes/fixed-clock.js';

const ZONE = 'Europe/Stockholm';
const GRANTOR = '198112189876';
const PROXY = '191212121212';
const CHILD = '201701012393';
const NOW = Date.UTC(2026, 10, 26, 9, 0);
const denied = expect.objectContaining({ code: 'ACCESS_DENIED' });
const noop = async (): Promise<void> => undefined;

describe('a proxy grant in the one delegation check (THREATS 62, 63)', () => {
  let clock: FixedClock;
  let ehr: FakeEhr;
  let grants: ProxyGrants;
  let policy: PatientAccessPolicy;
  const read = new ReadPatientData(ZONE);
  let n = 0;

  beforeEach(() => {
    clock = new FixedClock(NOW);
    ehr = new FakeEhr().withPatient(GRANTOR, { getPatient: [patientRecord(GRANTOR)] }).withPatient(PROXY, { getPatient: [patientRecord(PROXY)] })
      .withPatient(CHILD, { getPatient: [patientRecord(CHILD)] });
    const store = new MemoryGrantStore();
    const registry = new FakeRegistry().grant(GRANTOR, { patient: CHILD, type: 'guardian', validFrom: '20170101' });
    grants = new ProxyGrants({
      store, clock, zone: ZONE, settings: { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 }, facts: async () => ({ protectedIdentity: false }),
      newId: () => String(++n).padStart(32, '0'),
    });
    policy = new PatientAccessPolicy(ehr, new ProxyDelegation(registry, store), clock, ZONE);
  });

  const share = async (categories: string[], times: { validFrom?: string; validTo?: string } = {}): Promise<string> => {
    const { id } = await grants.give(GRANTOR, { grantee: PROXY, categories, ...times }, noop);
    await grants.accept(PROXY, id, noop);
    return id;
  };

  it('every category is a read\'s scope name, and no other operation is one', () => {
    expect(PROXY_CATEGORIES).toEqual(['Appointment', 'Patient', 'Contact', 'AttentionSignal', 'VideoMeeting', 'MedicationPrescription', 'JournalNote', 'LabResult', 'Diagnosis']);
  });

  it('opens nothing while pending, then exactly its category: every other read, the access log and the writes are refused', async () => {
    const { id } = await grants.give(GRANTOR, { grantee: PROXY, categories: ['LabResult'] }, noop);
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).rejects.toEqual(denied);
    await grants.accept(PROXY, id, noop);
    const access = await policy.resolve({ personId: PROXY }, GRANTOR);
    expect(access).toMatchObject({ basis: 'proxy', reach: new Set(['LabResult']) });
    for (const name of READ_NAMES) {
      if (categoryOf(name) === 'LabResult') await expect(read.execute(name, access, {})).resolves.toMatchObject({ withheld: 0 });
      else await expect(read.execute(name, access, {})).rejects.toEqual(denied);
    }
    expect(OPERATION_NAMES.filter((op) => reachesOperation(access, op))).toEqual(['getLabResults']);
  });

  it('`*` opens every read now and later, never the access log or a write', async () => {
    await share(['*']);
    const access = await policy.resolve({ personId: PROXY }, GRANTOR);
    expect(OPERATION_NAMES.filter((op) => reachesOperation(access, op))).toEqual([...READ_NAMES].filter((r) => OPERATION_NAMES.includes(r)));
    expect(reachesOperation(access, 'getAccessLog')).toBe(false);
    expect(reachesOperation(access, 'registerPayment')).toBe(false);
  });

  it('refuses from the very next request after a revoke, an expiry to the millisecond, or before validFrom', async () => {
    const id = await share(['LabResult'], { validFrom: '2026-11-27T08:00:00', validTo: '2026-11-28T08:00:00' });
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).rejects.toEqual(denied);
    clock.set(Date.UTC(2026, 10, 27, 7, 0));
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).resolves.toMatchObject({ basis: 'proxy' });
    clock.set(Date.UTC(2026, 10, 28, 7, 0, 0, 999));
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).resolves.toMatchObject({ basis: 'proxy' });
    clock.set(Date.UTC(2026, 10, 28, 7, 0, 1));
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).rejects.toEqual(denied);
    clock.set(Date.UTC(2026, 10, 27, 9, 0));
    await grants.revoke(GRANTOR, id, noop);
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).rejects.toEqual(denied);
  });

  it('never opens onward: a proxy reaches the grantor, not whom the grantor may act for', async () => {
    await share(['*']);
    await expect(policy.resolve({ personId: PROXY }, CHILD)).rejects.toEqual(denied);
  });

  it('reads nobody through a grant once the grantor has a protected identity', async () => {
    await share(['*']);
    ehr.withPatient(GRANTOR, { getPatient: [patientRecord(GRANTOR, { protectedIdentity: true })] });
    await expect(policy.resolve({ personId: PROXY }, GRANTOR)).rejects.toEqual(denied);
  });

  it('offers the grantor in the SMART picker, as a proxy', async () => {
    await share(['LabResult']);
    expect((await peopleToOpen(policy, PROXY)).map((p) => [p.identityNumber, p.basis])).toEqual([[PROXY, 'self'], [GRANTOR, 'proxy']]);
  });
});
