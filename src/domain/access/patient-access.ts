import type { Clock } from '../../ports/clock.port.js';
import type { DelegationRegistry } from '../../ports/delegation-registry.port.js';
import type { EhrCalls, EhrRecords } from '../../ports/ehr-records.port.js';
import type { ScopeContext } from '../fhir/smart-scopes.js';
import { EhrError } from '../ehr-error.js';
import { readerOf } from '../use-cases/read-sources.js';
import { knowsPatient, type PatientRecord } from '../records/index.js';
import { isProtectedInEhr } from './protected-identity.js';
import { DomainError } from '../errors.js';
import { IDENTITY_NUMBER_EXPECTED, parsePersonalIdentityNumber } from '../identity/personal-identity-number.js';
import { localDate } from '../time/local-time.js';
import { reachesRead } from './operation-reach.js';
import { isDelegated, type AccessBasis, type ProxyReach, type Relationship } from './relationship.js';
import { grantsAccess, type CheckedAt } from './relationship-validity.js';
import { contextsReaching, launchPatient, reaches, type IdentityNumberOf } from './scope-reach.js';

/** Who is calling, as the verified token says. */
export interface Caller {
  /** The logged-in person's identity number (person tokens); absent for client tokens. */
  personId?: string;
  /** The token's `smart_patient`: the Patient id of the launch patient the person picked. */
  smartPatient?: string;
  /**
   * The contexts the token's scopes grant the request's operation in (scope-reach.ts), when its scopes
   * decide whom it reaches (the COS door): `patient` alone reaches the launch patient only. Absent where
   * the caller has decided that already (the FHIR door, per resource type).
   */
  granted?: ReadonlySet<ScopeContext>;
}

export interface PatientAccess {
  patientId: string;
  basis: AccessBasis;
  /**
   * Only for basis `proxy`: the categories the patient's grant opens (docs/proxies.md). Every read
   * outside them, the access log and the writes are refused (operation-reach.ts).
   */
  reach?: ProxyReach;
  /**
   * Only for basis `proxy`: the ids of the live grants `reach` is the union of. What a subscription was
   * made under is tied to them (docs/notifications.md#checked-at-sending).
   */
  proxyGrants?: readonly string[];
  /** A client token reading a protected identity, and a proxy without the `Patient` category, get no addresses, phone numbers or e-mail. */
  maskContactDetails: boolean;
  /** The patient's demographic records, fetched to decide; reused by the patient read. */
  patientRecords: PatientRecord[];
  /**
   * The EHR as this request sees it: the view the access was decided through, so every later call
   * of the request (the read, the writes) is about the patient record the decision was about
   * (docs/architecture.md#one-request-one-patient). It is the request's alone and ends with it.
   */
  ehr: EhrCalls;
}

const DENIED = 'Access to the requested patient is not allowed.';

export const accessDenied = (): DomainError => new DomainError('ACCESS_DENIED', DENIED);

/**
 * Decides, on every request and without caching, whether the caller may act for the patient the
 * request names. Unknown patients are refused exactly like forbidden ones, so a caller cannot
 * probe which identity numbers the EHR knows. Each decision opens the request's own view of the
 * EHR, and the access it grants carries that view to the use case.
 */
export class PatientAccessPolicy {
  constructor(
    private readonly ehr: EhrRecords,
    private readonly registry: DelegationRegistry,
    private readonly clock: Clock,
    private readonly zone: string,
    /** The person a `smart_patient` stands for; absent without the FHIR API, when no launch patient can be read. */
    private readonly identityNumberOf?: IdentityNumberOf,
  ) {}

  /** The patient a request is for; throws a 400-class DomainError for a bad or missing header. */
  targetPatient(caller: Caller, patientHeader: string | undefined): string {
    if (patientHeader !== undefined) {
      const id = parsePersonalIdentityNumber(patientHeader);
      if (!id) {
        throw new DomainError('INVALID_PATIENT_HEADER', `Header patient must be ${IDENTITY_NUMBER_EXPECTED}.`);
      }
      return id;
    }
    if (caller.personId === undefined) {
      throw new DomainError('PATIENT_HEADER_REQUIRED', 'Header patient is required with a client token.');
    }
    return caller.personId;
  }

  /**
   * The launch patient of a person's token (scope-reach.ts): the person a `smart_patient` names, else
   * the person; undefined for a client token or a `smart_patient` this service cannot read. Sharing asks
   * it, since a person manages only their own grants (docs/contract.md §11).
   */
  launchPatientOf(caller: Caller): string | undefined {
    return launchPatient(caller, this.identityNumberOf);
  }

  /**
   * Everyone a person may act for today, themselves first (the FHIR API's `user/` scopes reach them
   * all, docs/fhir-api.md#scopes). Each is still decided by `resolve` when asked for.
   */
  async peopleFor(personId: string): Promise<string[]> {
    const at = this.checkedAt();
    const rows = await this.registry.relationshipsOf(personId);
    const others = rows.filter((r) => grantsAccess(r, r.patient, at)).map((r) => r.patient);
    return [personId, ...new Set(others.filter((p) => p !== personId))];
  }

  /**
   * Decides once per request: the access it grants holds the request's view of the EHR (`ehr`), a new
   * one unless the caller brings the view its other calls of the same patient go through (a poll of
   * a subscribed patient decides for each subscriber through one view).
   */
  async resolve(caller: Caller, patientId: string, view?: EhrCalls): Promise<PatientAccess> {
    const decided = await this.basisNow(caller, patientId);
    const { basis, reach } = decided;
    const ehr = view ?? this.ehr.forRequest();
    const patientRecords = await this.patientRecords(ehr, patientId);
    // The mark decides a delegate's access and a client's view alone: the patient's own read asks no more of the EHR.
    const isProtected = basis !== 'self' && await isProtectedInEhr(ehr, patientId, patientRecords);
    if (isProtected && isDelegated(basis)) throw accessDenied();
    // A proxy whose grant leaves out the patient's personal details gets them from no other read either (an appointment's patient block).
    const withoutDetails = (isProtected && basis === 'client') || (basis === 'proxy' && !reachesRead({ basis, ...(reach === undefined ? {} : { reach }) }, 'getPatient'));
    return { ...decided, patientId, maskContactDetails: withoutDetails, patientRecords, ehr };
  }

  /**
   * On what the caller's right to `patientId` rests today, from the relationships alone (no EHR read):
   * what the audit record of a request about something of theirs names (a subscription they keep for
   * a child). ACCESS_DENIED when none holds. Deciding a read of the patient's records is `resolve`'s.
   */
  async basisOf(caller: Caller, patientId: string): Promise<AccessBasis> {
    return (await this.basisNow(caller, patientId)).basis;
  }

  private checkedAt(): CheckedAt {
    const nowMs = this.clock.now();
    return { today: localDate(nowMs, this.zone), nowMs };
  }

  /**
   * The right to `patientId` from the relationships alone (no EHR read of the patient): what `resolve` decides first,
   * and what a caller that holds an access across the EHR's answer decides again, so as not to act on a right that
   * ended meanwhile (a notification at its sending: hostile review helper-137, F1). ACCESS_DENIED when none holds now.
   */
  async basisNow(caller: Caller, patientId: string): Promise<Pick<PatientAccess, 'basis' | 'reach' | 'proxyGrants'>> {
    // A patient the scopes do not reach is refused as any delegation is (docs/contract.md#scopes).
    if (caller.granted !== undefined && !reaches(caller.granted, contextsReaching(caller, launchPatient(caller, this.identityNumberOf), patientId))) {
      throw accessDenied();
    }
    if (caller.personId === undefined) return { basis: 'client' };
    const self = parsePersonalIdentityNumber(caller.personId);
    if (self === undefined) throw accessDenied();
    if (self === patientId) return { basis: 'self' };
    const relationships = await this.registry.relationshipsOf(self);
    // Judged when the relationships came back, not before their read: a grant that ran out meanwhile has ended.
    const at = this.checkedAt();
    const rows = relationships.filter((r) => grantsAccess(r, patientId, at));
    // A right the registry records reaches more than a grant the patient gave: it decides when both hold.
    // Of the registry's, a guardian's decides where it holds: the guardian age limit holds a guardian
    // alone, and a power of attorney or partner row beside it must not lift it (hostile review helper-103, F1).
    const registered = rows.filter((r) => r.proxy === undefined);
    const row = registered.find((r) => r.type === 'guardian') ?? registered[0] ?? rows[0];
    if (!row) throw accessDenied();
    if (row.proxy === undefined) return { basis: row.type };
    const grants = rows.flatMap((r) => (r.proxy === undefined ? [] : [r.proxy]));
    return { basis: 'proxy', reach: reachOf(grants), proxyGrants: grants.map((g) => g.grantId) };
  }

  private async patientRecords(ehr: EhrCalls, patientId: string): Promise<PatientRecord[]> {
    try {
      const records = await readerOf(ehr.reads, 'getPatient')(patientId, {});
      if (!knowsPatient(records, patientId)) throw accessDenied();
      return records;
    } catch (err) {
      if (err instanceof EhrError && err.failure === 'patient-not-found') throw accessDenied();
      throw err;
    }
  }
}

/** What the live proxy grants between one pair open together (one at a time, but the union is what holds). */
function reachOf(grants: readonly NonNullable<Relationship['proxy']>[]): ProxyReach {
  const reaches = grants.map((g) => g.reach);
  if (reaches.some((r) => r === '*')) return '*';
  return new Set(reaches.flatMap((r) => [...(r as ReadonlySet<string>)]));
}
