/**
 * Sharing in the grantor's access log (docs/contract.md §11 "Audited and shown", docs/proxies.md#audited-and-shown):
 * each grant event under its operation name, naming the grantee by number until they accept and then
 * by name; a proxy's reads with basis `proxy` and the proxy's number; support's revocation with its
 * reason; lapses and expiries as the service's. Grants from the in-memory store, through the use case.
 */
import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryGrantStore } from '../../../src/adapters/proxy-grants/memory-grant-store.js';
import { SealedPageCursors } from '../../../src/adapters/page-cursor/sealed-page-cursors.js';
import type { AccessLogEntry } from '../../../src/domain/access-log/access-log-entry.js';
import { BASIS_NAMES, operationDisplayName } from '../../../src/domain/access-log/display-names.js';
import { ReadAccessLog } from '../../../src/domain/access-log/read-access-log.js';
import { ProxyGrants } from '../../../src/domain/proxies/proxy-grants.js';
import { auditEvent } from '../../../src/http/access-log/fhir-audit-event.js';
import type { OutcomeRecord } from '../../../src/ports/audit-trail.port.js';
import { SERVICE_ACTOR, settledRecordOf } from '../../../src/start/proxy-grants.js';
import { FixedClock } from '../../fakes/fixed-clock.js';
import { MemoryAuditTrail } from '../../fakes/memory-audit-trail.js';

const ZONE = 'Europe/Stockholm';
const TOLVAN = '191212121212';
const MARTA = '198112189876';
const GOSTA = '194608632396';
/** A representative of Tolvan's reading Tolvan's log: a third person to every grant. */
const THIRD = '197001012314';
const NAMES: Readonly<Record<string, string>> = { [TOLVAN]: 'Tolvan Tolvansson', [MARTA]: 'Märta Ström', [GOSTA]: 'Gösta Partnersson' };
const T0 = Date.parse('2026-11-21T08:00:00.000Z');
const DAY = 86_400_000;
const REASON = 'Tolvan ringde supporten och bad oss avsluta delningen (ärende 4711)';

const asPatient = { personId: TOLVAN };

describe('issue 53: sharing in the grantor\'s access log', () => {
  let store: MemoryGrantStore;
  let clock: FixedClock;
  let grants: ProxyGrants;
  let trail: MemoryAuditTrail;
  let log: ReadAccessLog;
  let seq = 0;
  /** People whose identity is protected now (the EHR's word at each answer). */
  let protectedNow: Set<string>;

  /** The outcome record a request of `actor` about Tolvan's grant leaves, as the sharing routes audit it. */
  const audit = (operation: string, actor: string | 'support', grantId: string | undefined, extra: Partial<OutcomeRecord> = {}): Promise<void> => {
    const id = `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
    const who: Partial<OutcomeRecord> = actor === 'support'
      ? { actor: { issuer: 'urn:pdas:support', subject: 'support' }, delegation: 'support' }
      : { actor: { issuer: 'https://idp.example.test', subject: actor, personId: actor }, clientId: 'patient-app', delegation: 'self' };
    return trail.append({
      time: new Date(clock.now()).toISOString(), requestId: id, serviceRequestId: id, operation, patientId: TOLVAN, sourceAddress: '127.0.0.1',
      outcome: 'allowed', status: 200, ...who, ...(grantId === undefined ? {} : { proxyGrantId: grantId }), ...extra,
    });
  };
  const nothing = async (): Promise<void> => undefined;
  const page = async (viewer: { personId?: string } = asPatient): Promise<AccessLogEntry[]> =>
    (await log.page({ patientId: TOLVAN, basis: 'self', viewer, caller: 'viewer', interval: {}, limit: 100 })).entries;

  beforeEach(() => {
    store = new MemoryGrantStore();
    clock = new FixedClock(T0);
    let n = 0;
    grants = new ProxyGrants({
      store, clock, zone: ZONE, settings: { invitationDays: 7, maxGrants: 10, maxGrantsPerDay: 20, maxGrantsToOnePerDay: 3 },
      facts: async (person) => ({ protectedIdentity: protectedNow.has(person), ...(NAMES[person] === undefined ? {} : { name: NAMES[person] }) }),
      newId: () => (++n).toString(16).padStart(32, '0'),
    });
    trail = new MemoryAuditTrail();
    protectedNow = new Set();
    log = new ReadAccessLog(trail, new SealedPageCursors(randomBytes(32)), { zone: ZONE, clock, grantOf: (id) => grants.partiesOf(id) });
  });

  // Re-review helper-165 F1: the grant's views left a grantee protected since out, but the access log still named her, on COS and FHIR.
  it('names the grantee only while her identity is not protected: one protected since accepting is her number alone', async () => {
    const { id } = await grants.give(TOLVAN, { grantee: MARTA, categories: ['JournalNote'] }, nothing);
    await audit('grantProxy', TOLVAN, id);
    await grants.accept(MARTA, id, nothing);
    await audit('acceptProxy', MARTA, id);
    expect((await page()).map((e) => e.grantee)).toEqual([{ identityNumber: MARTA, name: 'Märta Ström' }, { identityNumber: MARTA, name: 'Märta Ström' }]);
    protectedNow.add(MARTA);
    expect((await page()).map((e) => e.grantee)).toEqual([{ identityNumber: MARTA }, { identityNumber: MARTA }]);
  });

  it('issue 53: names the grantee by number until they accept, then by name, on every entry of the grant', async () => {
    const { id } = await grants.give(TOLVAN, { grantee: MARTA, categories: ['JournalNote'] }, nothing);
    await audit('grantProxy', TOLVAN, id);
    const [granted] = await page();
    expect(granted).toMatchObject({ operation: 'grantProxy', basis: 'self', grantee: { identityNumber: MARTA } });
    expect(granted?.grantee).toEqual({ identityNumber: MARTA });
    expect(granted?.operationDisplayName).toEqual(operationDisplayName('grantProxy'));

    clock.advance(60_000);
    await grants.accept(MARTA, id, nothing);
    await audit('acceptProxy', MARTA, id);
    const entries = await page();
    expect(entries.map((e) => [e.operation, e.basis, e.actorPersonId, e.grantee])).toEqual([
      ['grantProxy', 'self', undefined, { identityNumber: MARTA, name: 'Märta Ström' }],
      ['acceptProxy', 'proxy', MARTA, { identityNumber: MARTA, name: 'Märta Ström' }],
    ]);
  });

  it('issue 53: each of the six events and a proxy\'s read, with their names in Swedish and English', async () => {
    // Märta accepts, reads, and Tolvan revokes; Gösta declines; a third invitation lapses; a fourth expires; a fifth support ends.
    const toMarta = await grants.give(TOLVAN, { grantee: MARTA, categories: ['JournalNote'] }, nothing);
    await audit('grantProxy', TOLVAN, toMarta.id);
    await grants.accept(MARTA, toMarta.id, nothing);
    await audit('acceptProxy', MARTA, toMarta.id);
    await audit('getJournalNotes', MARTA, undefined, { delegation: 'proxy' });
    await grants.revoke(TOLVAN, toMarta.id, nothing);
    await audit('revokeProxy', TOLVAN, toMarta.id);
    const toGosta = await grants.give(TOLVAN, { grantee: GOSTA, categories: ['*'] }, nothing);
    await grants.decline(GOSTA, toGosta.id, nothing);
    await audit('declineProxy', GOSTA, toGosta.id);
    await grants.give(TOLVAN, { grantee: MARTA, categories: ['LabResult'] }, nothing);
    const expiring = await grants.give(TOLVAN, { grantee: GOSTA, categories: ['LabResult'], validTo: '2026-11-22T09:00:00' }, nothing);
    await grants.accept(GOSTA, expiring.id, nothing);
    clock.advance(8 * DAY);
    await grants.settleDue(async (grant, kind) => trail.append(settledRecordOf(grant, kind, clock.now())));
    const ended = await grants.give(TOLVAN, { grantee: THIRD, categories: ['Appointment'] }, nothing);
    await grants.revokeAsSupport(ended.id, nothing);
    await audit('revokeProxy', 'support', ended.id, { reason: REASON });

    const entries = await page();
    const marta = { identityNumber: MARTA, name: 'Märta Ström' };
    const gosta = { identityNumber: GOSTA, name: 'Gösta Partnersson' };
    expect(entries.map((e) => [e.operation, e.basis, e.actorPersonId, e.grantee, e.reason])).toEqual([
      ['grantProxy', 'self', undefined, marta, undefined],
      ['acceptProxy', 'proxy', MARTA, marta, undefined],
      ['getJournalNotes', 'proxy', MARTA, undefined, undefined],
      ['revokeProxy', 'self', undefined, marta, undefined],
      // Gösta never accepted this one: his number only.
      ['declineProxy', 'proxy', GOSTA, { identityNumber: GOSTA }, undefined],
      ['lapseProxy', 'service', undefined, { identityNumber: MARTA }, undefined],
      ['expireProxy', 'service', undefined, gosta, undefined],
      ['revokeProxy', 'support', undefined, { identityNumber: THIRD }, REASON],
    ]);
    for (const e of entries) {
      expect(e.operationDisplayName).toEqual(operationDisplayName(e.operation));
      expect(e.outcome).toBe('allowed');
    }
    expect(entries.find((e) => e.operation === 'lapseProxy')?.operationDisplayName)
      .toEqual({ sv: 'Inbjudan att ta del av din journal gick ut obesvarad', en: 'An invitation to your record lapsed unanswered' });
    expect(entries.find((e) => e.operation === 'expireProxy')?.operationDisplayName)
      .toEqual({ sv: 'Delningen av din journal upphörde (tiden gick ut)', en: 'Sharing of your record ended (its time ran out)' });
    expect(BASIS_NAMES.proxy).toEqual({ sv: 'Person du delat din journal med', en: 'Someone you shared your record with' });
    expect(BASIS_NAMES.support).toEqual({ sv: 'Tjänstens support', en: "The service's support staff" });
    expect(BASIS_NAMES.service).toEqual({ sv: 'Tjänsten själv (tiden gick ut eller en regel)', en: 'The service itself (its time ran out, or a rule)' });
    // The service acted alone: no person, no app, as settledRecordOf records it.
    expect(entries.find((e) => e.operation === 'lapseProxy')?.clientApplication).toEqual({ displayName: 'Tjänstens eget verktyg' });
    expect(SERVICE_ACTOR.issuer).toBe('urn:pdas:service');

    // A third person (a representative reading Tolvan's log) sees no number, no grantee and no reason; the proxy sees their own number only.
    const asThird = await page({ personId: THIRD });
    expect(asThird.map((e) => [e.basis, e.actorPersonId, e.grantee, e.reason]).filter((v) => v.slice(1).some((x) => x !== undefined))).toEqual([]);
    expect(asThird.map((e) => e.basis)).toEqual(entries.map((e) => e.basis));
    const asMarta = await page({ personId: MARTA });
    expect(asMarta.flatMap((e) => [e.actorPersonId, e.grantee, e.reason]).filter((x) => x !== undefined)).toEqual([MARTA, MARTA]);
    // A client token sees no person at all.
    expect((await page({})).flatMap((e) => [e.actorPersonId, e.grantee, e.reason]).filter((x) => x !== undefined)).toEqual([]);
    expect(JSON.stringify(asThird)).not.toMatch(/19[0-9]{10}|Märta|Gösta|ärende/);
  });

  it('issue 53: names no grantee of another patient\'s grant, nor of a grant the store no longer holds', async () => {
    const { id } = await grants.give(MARTA, { grantee: GOSTA, categories: ['*'] }, nothing);
    // A record about Tolvan naming Märta's grant (never written so; a stored row could be restored wrongly).
    await audit('grantProxy', TOLVAN, id);
    await audit('grantProxy', TOLVAN, 'f'.repeat(32));
    expect((await page()).map((e) => e.grantee)).toEqual([undefined, undefined]);
    // Without sharing, nothing is looked up.
    log = new ReadAccessLog(trail, new SealedPageCursors(randomBytes(32)), { zone: ZONE, clock });
    expect((await page()).map((e) => e.grantee)).toEqual([undefined, undefined]);
  });

  it('issue 53: the FHIR AuditEvent carries the grantee as an entity and support\'s reason', async () => {
    const ended = await grants.give(TOLVAN, { grantee: MARTA, categories: ['Appointment'] }, nothing);
    await grants.accept(MARTA, ended.id, nothing);
    await grants.revokeAsSupport(ended.id, nothing);
    await audit('revokeProxy', 'support', ended.id, { reason: REASON });
    const [entry] = await page();
    const event = auditEvent(entry as AccessLogEntry, TOLVAN) as {
      agent: Array<{ type: { coding: Array<{ code: string }>; text: string }; who: unknown }>;
      entity: Array<{ what: unknown; role?: { code: string } }>;
      purposeOfEvent?: unknown;
    };
    expect(event.purposeOfEvent).toEqual([{ text: REASON }]);
    expect(event.agent[0]).toMatchObject({ type: { coding: [{ code: 'ASSIGNED' }], text: "The service's support staff" }, who: { display: "The service's support staff" } });
    expect(event.entity).toContainEqual({
      what: { identifier: { system: 'urn:oid:1.2.752.129.2.1.3.1', value: MARTA }, display: 'Märta Ström' },
      role: { system: 'http://terminology.hl7.org/CodeSystem/object-role', code: '11', display: 'Security User Entity' },
    });
    // A third person's AuditEvent names neither.
    const [third] = await page({ personId: THIRD });
    expect(JSON.stringify(auditEvent(third as AccessLogEntry, TOLVAN))).not.toMatch(new RegExp(`${MARTA}|Märta|${REASON}`));
  });
});
