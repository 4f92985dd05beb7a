/**
 * Whether the picked patient shared parts of their record with the signed-in person (a proxy grant,
 * docs/proxies.md), and which: the page then reads only those parts, says the rest is not shared, and
 * says in words when the sharing has ended. A guardian, a partner or a power of attorney from the EHR's
 * registry reads as before: the service decides each read either way, this only keeps the page from
 * asking for what was never shared (each refusal would stand in the other person's log).
 */
import type Client from 'fhirclient/lib/Client';
import type { Patient } from './fhir-types.js';
import { listGrants, type Grant } from './sharing-api.js';

export interface SharedWithMe {
  /** The grantor's name, once the service names them. */
  name?: string;
  /** What they share: category names, or `*`. */
  categories: string[];
  /** The sharing has ended (revoked, expired): nothing is read, the page says so. */
  ended: boolean;
}

const KEY = 'patient-app-shared:';
const PERSONNUMMER = /personnummer|samordningsnummer|1\.2\.752\.129\.2\.1\.3\.[13]/;

interface Remembered { grantId: string; name?: string; categories: string[] }

function remembered(patientId: string): Remembered | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(KEY + patientId) ?? 'null') as Remembered | undefined ?? undefined;
  } catch {
    return undefined;
  }
}

function remember(patientId: string, grant: Grant): SharedWithMe {
  const kept: Remembered = { grantId: grant.id, categories: grant.categories, ...(grant.grantor.name === undefined ? {} : { name: grant.grantor.name }) };
  sessionStorage.setItem(KEY + patientId, JSON.stringify(kept));
  return { categories: grant.categories, ended: false, ...(kept.name === undefined ? {} : { name: kept.name }) };
}

/**
 * How the token's person stands to the picked patient, by their RelatedPerson: `agent` (a grant), or
 * `registry` (a guardian, a partner, a power of attorney); `refused` when the service will not show it,
 * which only a grant's narrow reach does to a delegate still reading.
 */
async function standing(client: Client, fhirUser: string): Promise<'agent' | 'registry' | 'refused' | undefined> {
  try {
    const person = await client.request<{ relationship?: { coding?: { code?: string }[] }[] }>(fhirUser);
    return (person.relationship ?? []).some((r) => (r.coding ?? []).some((c) => c.code === 'AGNT')) ? 'agent' : 'registry';
  } catch (err) {
    return (err as { status?: unknown }).status === 403 ? 'refused' : undefined;
  }
}

/** Which of several grantors the picked patient is: by their identity number, when their details are shared. */
async function identityOf(client: Client, patientId: string): Promise<string | undefined> {
  try {
    const patient = await client.request<Patient & { identifier?: { system?: string; value?: string }[] }>(`Patient/${encodeURIComponent(patientId)}`);
    return patient.identifier?.find((i) => PERSONNUMMER.test(i.system ?? ''))?.value?.replace(/\D/g, '');
  } catch {
    return undefined;
  }
}

/** What the picked patient shares with the signed-in person, or undefined when they are not reading through a grant. */
export async function sharedWithMe(client: Client, patientId: string): Promise<SharedWithMe | undefined> {
  const fhirUser = client.getFhirUser();
  if (fhirUser?.startsWith('RelatedPerson/') !== true) return undefined;
  const kept = remembered(patientId);
  const grants = await listGrants(client).catch(() => undefined);
  if (kept !== undefined) {
    if (grants === undefined) return { categories: kept.categories, ended: false, ...(kept.name === undefined ? {} : { name: kept.name }) };
    const grant = grants.find((g) => g.id === kept.grantId);
    if (grant?.status === 'active') return remember(patientId, grant);
    const name = grant?.grantor.name ?? kept.name;
    return { categories: kept.categories, ended: true, ...(name === undefined ? {} : { name }) };
  }
  const active = (grants ?? []).filter((g) => g.role === 'grantee' && g.status === 'active');
  if (active.length === 0) return undefined;
  const stands = await standing(client, fhirUser);
  if (stands === 'registry' || stands === undefined) return undefined;
  if (active.length === 1 && active[0] !== undefined) return remember(patientId, active[0]);
  const number = await identityOf(client, patientId);
  const grant = active.find((g) => g.grantor.identityNumber === number);
  if (grant !== undefined) return remember(patientId, grant);
  // Several people share with this person and the picked one is not told apart: what any of them shares is asked for, the service decides.
  const categories = [...new Set(active.flatMap((g) => g.categories))];
  return { categories, ended: false };
}
