/**
 * The resources of one patient's records that a FHIR request may see: read through the same use
 * case as every COS read (access decided now, release policy, masking), then written as FHIR by
 * each read's form. What the release policy withheld is counted for the `SUBSETTED` tag and the
 * audit, never shown.
 */
import type { FastifyRequest } from 'fastify';
import { holdsAPersonNumber } from '../../domain/redaction/names-a-person.js';
import type { ReadName } from '../../domain/operations/table.js';
import type { AsFhirContext, FhirForm, FhirResource, RecordId } from '../../reads/as-fhir.js';
import { reachesRead } from '../../domain/access/operation-reach.js';
import { accessDenied, type PatientAccess } from '../../domain/access/patient-access.js';
import { ReadUnavailableError } from '../../domain/read-availability/unavailable-read.js';
import { isProtectedIdentity } from '../../domain/records/index.js';
import { accessFor } from '../request-patient.js';
import type { PatientRead } from '../types.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { alternativesOf, inAlternativesOrder } from './alternative-reads.js';
import type { FhirApi } from './fhir-api.js';
import { GatheredResources, type GatheredPart } from './gathered-resources.js';
import type { WrittenForms } from './written-forms.js';

const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
/**
 * Whether a record id can be a resource's id as it is: a valid FHIR id that holds no person's number
 * (src/domain/redaction/names-a-person.ts: what the service writes itself holds none). Decided
 * once per id text (a bounded memo: a patient's records repeat their units' and staff's ids on every
 * request, and the scan above cost 4 % of a journal's FHIR search, BENCHMARKS.md part 10). The
 * answer depends on the text alone, never on who asks.
 */
const usable = new Map<string, boolean>();
const USABLE_MEMO = 10_000;
function usableAsId(candidate: string): boolean {
  let ok = usable.get(candidate);
  if (ok === undefined) {
    ok = FHIR_ID.test(candidate) && !holdsAPersonNumber(candidate);
    if (usable.size >= USABLE_MEMO) usable.clear();
    usable.set(candidate, ok);
  }
  return ok;
}

/** The reads' resources gathered, each `Type/id` once (a process's, shared by every API instance: what it answers depends on its arguments alone). */
const gathered = new GatheredResources();

export interface PatientResources {
  /** Frozen; the same array for the same reads' same kept resources (gathered-resources.ts). */
  resources: readonly FhirResource[];
  withheld: number;
  /** The part of `withheld` each read withheld. */
  withheldBy: ReadonlyMap<ReadName, number>;
  /** The read each resource (`Type/id`) came from: the first of `reads` that wrote it. */
  readOf: ReadonlyMap<string, ReadName>;
  /** The access decided for the request: what it reaches, and the patient document it was decided on. */
  access: PatientAccess;
}

/** What to do when the caller's access reaches none of the request's own reads: refuse it, as a read would be, or read the others. */
export type OwnUnreached = 'refuse' | 'leave-out';

/** The context every form writes one patient's records in. */
export function asFhirContext(api: FhirApi, zone: string, patient: string, protectedInPatientDocument: boolean): AsFhirContext {
  return {
    protectedInPatientDocument,
    patientReference: `Patient/${api.ids.patientId(patient)}`,
    idOf: (type: string, record: RecordId) => {
      const own = record.root === api.idRoot && record.extension.startsWith(`${type}/`) ? record.extension.slice(type.length + 1) : undefined;
      const candidate = own ?? record.extension;
      // One of a Patient id's form would read as a patient's in a search value (threat 57): digested.
      if (usableAsId(candidate) && !api.ids.hasPatientIdForm(candidate)) return candidate;
      return api.ids.recordDigest(record.root, record.extension);
    },
    idRoot: api.idRoot,
    zone,
    ...(api.videoActionIdSystem === undefined ? {} : { videoActionIdSystem: api.videoActionIdSystem }),
  };
}

/**
 * The resources of the `own` reads and of those `besides` them for `patient`, each `Type/id` once, as
 * the reads' forms write them (or as `written` kept them). A Patient's layouts are alternatives wherever
 * they are read (alternative-reads.ts). A read the caller's access does not reach is left out; none of `own` reached
 * is refused (ACCESS_DENIED), as the read would be on the COS door, unless `ownUnreached` leaves them out
 * (a summary, whose subject is then what the access was decided on, patient-summary.ts).
 * Throws the access policy's refusal (403) when the caller may not act for the patient; the audit
 * record names the patient either way.
 * In a request that may read several patients (`request.audit.patientsRead` set), the patient is
 * named only once access is granted, in a record of their own (src/http/audit-record.ts).
 */
export async function patientResources(
  request: FastifyRequest, deps: RouteDependencies, api: FhirApi, written: WrittenForms, patient: string, own: readonly ReadName[],
  besides: readonly ReadName[] = [], ownUnreached: OwnUnreached = 'refuse',
): Promise<PatientResources> {
  const several = request.audit.patientsRead;
  if (several === undefined) request.audit.patientId = patient;
  const access = await accessFor(request, deps.accessPolicy, patient);
  // A proxy's grant opens its categories only (docs/proxies.md): the request's own reads must be among
  // them, as a COS read must; what it brings besides them (includes, a summary's sections) is left out.
  const reached = own.filter((read) => reachesRead(access, read));
  if (reached.length === 0 && own.length > 0 && ownUnreached === 'refuse') throw accessDenied();
  const alternatives = alternativesOf(api.forms);
  const reads = inAlternativesOrder([...new Set([...reached, ...besides.filter((read) => reachesRead(access, read))])], alternatives);
  const part: PatientRead = { delegation: access.basis as string, withheld: 0 };
  several?.set(patient, part);
  const ctx = asFhirContext(api, deps.zone, patient, isProtectedIdentity(access.patientRecords, patient));
  const parts: GatheredPart[] = [];
  let withheld = 0;
  const withheldBy = new Map<ReadName, number>();
  let unavailable: ReadUnavailableError | undefined;
  let served = 0;
  for (const read of reads) {
    // Alternatives: once one of them gave the resource of that type, the others are not asked.
    if (alternatives.some((a) => a.reads.includes(read) && parts.some((p) => p.resources.some((r) => r.resourceType === a.type)))) continue;
    const form = api.forms[read] as FhirForm<ReadName> | undefined;
    if (form === undefined) continue;
    let released;
    try {
      released = await deps.readPatientData.execute(read, access, {});
    } catch (err) {
      // A read this region does not serve takes no other down (issue 57 item 4): the others answer;
      // only a request whose own reads are all unavailable is answered with its error.
      if (!(err instanceof ReadUnavailableError)) throw err;
      unavailable ??= err;
      continue;
    }
    if (reached.includes(read)) served += 1;
    withheld += released.withheld;
    withheldBy.set(read, released.withheld);
    part.withheld = withheld;
    // The reads made, the type's own first: its audit record is named for them (src/http/audit-record.ts).
    (several === undefined ? (request.audit.reads ??= new Set()) : (part.reads ??= new Set())).add(read);
    parts.push({ read, resources: written.resources(read, form, released.records, ctx, patient) });
  }
  if (unavailable !== undefined && served === 0 && reached.length > 0) throw unavailable;
  const { resources, readOf } = gathered.of(parts);
  return { resources, withheld, withheldBy, readOf, access };
}
