/**
 * What a booking and a video meeting both write: an Appointment of the patient, read backwards from
 * docs/upstream-fhir.md#33-booked-appointments-operation-3, #38-video-meetings-operation-8. The
 * unit is a Location participant managed by the unit's Organization (an Organization cannot be a
 * participant in R4; the Location, where the patient goes, carries the unit's address); the main
 * performer is the participant typed `PPRF`; every member of staff's role in this event is the
 * participant's `type.text`, which Staff(actor) reads before any other position.
 */
import { offsetAt } from '../domain/time/local-time.js';
import type { AsFhirContext, FhirResource } from './as-fhir.js';
import { fhirOnly, reference } from './as-fhir-common.js';
import { textConcept, UNKNOWN } from './as-fhir-datatypes.js';
import type { WrittenResources } from './as-fhir-parties.js';

const PRIMARY_PERFORMER = {
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'PPRF', display: 'primary performer' }],
};

/** A unit as a booking or a meeting names it: any of its ids, its name, the address the patient goes to. */
export interface AppointmentUnit {
  internalId?: string;
  hsaId?: string;
  name?: string;
  address?: { careOf?: string; street?: string; postcode?: string; city?: string; country?: string };
}

/** A member of staff by name, with the role in this very appointment. */
export interface AppointmentStaff {
  name?: string;
  role?: string;
}

export interface AppointmentFacts {
  /** The Appointment's logical id. */
  id: string;
  /** The least-saying code of the statuses the inbound reads as this kind of record. */
  status: 'booked' | 'proposed';
  startMs: number;
  /** Absent where the record has no end. */
  endMs?: number;
  identifier?: readonly { system: string; value: string }[];
  extension?: readonly object[];
  serviceType?: string;
  patientInstruction?: string;
  unit?: AppointmentUnit;
  main?: AppointmentStaff;
  others?: readonly AppointmentStaff[];
}

/**
 * An instant as FHIR writes one, with the offset of `zone` at that instant (`2026-10-25T02:30:00+01:00`),
 * so the repeated autumn hour keeps the instant it stands for (docs/upstream-fhir.md#time).
 */
export function instantAt(epochMs: number, zone: string): string {
  const offsetMinutes = Math.round(offsetAt(epochMs, zone) / 60_000);
  const local = new Date(epochMs + offsetMinutes * 60_000).toISOString();
  const seconds = epochMs % 1000 === 0 ? local.slice(0, 19) : local.slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  return `${seconds}${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A unit or a member of staff the record names by its name alone: one resource per name, its id a digest. */
const namedId = (type: string, name: string | undefined, ctx: AsFhirContext): string =>
  ctx.idOf(type, { root: ctx.idRoot, extension: `${type}|name|${name ?? ''}` });

/** The unit's Organization: by its ids where the record has one, else by its name; undefined when it has neither. */
function unitOrganization(unit: AppointmentUnit, out: WrittenResources, ctx: AsFhirContext): { reference: string } | undefined {
  const byId = out.unit({ internalId: unit.internalId, hsaId: unit.hsaId, name: unit.name }, ctx);
  if (byId !== undefined || unit.name === undefined) return byId;
  const id = namedId('Organization', unit.name, ctx);
  out.add({ resourceType: 'Organization', id, name: unit.name });
  return reference('Organization', id);
}

/** The Location the unit came from (docs/upstream-fhir.md#33-booked-appointments-operation-3, PerformingUnit). */
function unitLocation(unit: AppointmentUnit, out: WrittenResources, ctx: AsFhirContext): { reference: string } | undefined {
  const organization = unitOrganization(unit, out, ctx);
  if (organization === undefined) return undefined;
  const a = unit.address;
  const lines = a === undefined ? [] : [a.careOf, a.street].filter((l): l is string => l !== undefined);
  const written = a === undefined ? {} : fhirOnly({ line: lines, postalCode: a.postcode, city: a.city, country: a.country });
  const address = Object.keys(written).length === 0 ? undefined : written;
  // One unit may be reached at two addresses: each is its own Location, so neither booking reads back the other's.
  const id = ctx.idOf('Location', { root: ctx.idRoot, extension: `Location|${organization.reference}|${JSON.stringify(address ?? null)}` });
  out.add(fhirOnly({ resourceType: 'Location', id, address, managingOrganization: organization }));
  return reference('Location', id);
}

function staffParticipant(staff: AppointmentStaff, main: boolean, status: string, out: WrittenResources, ctx: AsFhirContext) {
  const id = namedId('Practitioner', staff.name, ctx);
  out.add(fhirOnly({ resourceType: 'Practitioner', id, name: staff.name === undefined ? undefined : [{ text: staff.name }] }));
  const role = textConcept(staff.role);
  const type = [...(main ? [PRIMARY_PERFORMER] : []), ...(role === undefined ? [] : [role])];
  return fhirOnly({ type, actor: reference('Practitioner', id), status });
}

/** The Appointment; the resources it references are added to `out`. */
export function appointmentOf(a: AppointmentFacts, out: WrittenResources, ctx: AsFhirContext): FhirResource {
  // R4 requires each participant's status: a booked appointment's participants have accepted it,
  // those of a request not yet scheduled have yet to (the value set's definitions of both).
  const status = a.status === 'booked' ? 'accepted' : 'needs-action';
  const location = a.unit === undefined ? undefined : unitLocation(a.unit, out, ctx);
  const participant = [
    { actor: { reference: ctx.patientReference }, status },
    ...(a.main === undefined ? [] : [staffParticipant(a.main, true, status, out, ctx)]),
    ...(a.others ?? []).map((s) => staffParticipant(s, false, status, out, ctx)),
    ...(location === undefined ? [] : [{ actor: location, status }]),
  ];
  return fhirOnly({
    resourceType: 'Appointment', id: a.id,
    identifier: a.identifier,
    extension: a.extension,
    status: a.status,
    serviceType: a.serviceType === undefined ? undefined : [textConcept(a.serviceType)],
    start: instantAt(a.startMs, ctx.zone),
    end: a.endMs === undefined ? undefined : instantAt(a.endMs, ctx.zone),
    // app-2: a start needs an end. The record has none, so the end is there but unknown.
    _end: a.endMs === undefined ? UNKNOWN : undefined,
    patientInstruction: a.patientInstruction,
    participant,
  });
}
