/**
 * What a booking and a video meeting both read from an Appointment (docs/upstream-fhir.md#33-booked-appointments-operation-3):
 * its unit, by the first of the Location's managing organisation, the HealthcareService's provider
 * and the PractitionerRole's organisation (an Organization cannot be a participant in R4); its main
 * performer (`PPRF`, else the first member of staff); and its other staff. Also its patient fee, which
 * a booking shows and the payment write charges.
 */
import { isKronorAmount } from './adapter/decimal.js';
import { hasCode } from './codes.js';
import { unitFacts, type UnitFacts } from './care-parties.js';
import { extensionOf, partOf, PDAS_BASE } from './extensions.js';
import { writtenNumber } from './fhir-json.js';
import { referenceType, type ResourceIndex } from './resource-index.js';
import type { Appointment } from '../../reads/appointments/resource-types.js';
import type { SubExtension } from '../../domain/fhir/resources/datatypes.js';
import type { Location } from '../../domain/fhir/resources/parties.js';

export type Participant = Appointment['participant'][number];

const PARTICIPATION_TYPE = 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType';
const STAFF_TYPES: ReadonlySet<string | undefined> = new Set(['Practitioner', 'PractitionerRole']);
const PATIENT_FEE = `${PDAS_BASE}StructureDefinition/patient-fee`;

export interface AppointmentUnit {
  unit: UnitFacts;
  /** Where the patient goes, when the unit came from a Location. */
  location?: Location;
}

export function appointmentUnit(appointment: Appointment, index: ResourceIndex): AppointmentUnit | undefined {
  const actors = appointment.participant.map((p) => p.actor);
  for (const actor of actors) {
    const location = index.get(actor, 'Location');
    const org = index.get(location?.managingOrganization, 'Organization');
    if (location !== undefined && org !== undefined) return { unit: unitFacts(org, index), location };
  }
  for (const actor of actors) {
    const org = index.get(index.get(actor, 'HealthcareService')?.providedBy, 'Organization');
    if (org !== undefined) return { unit: unitFacts(org, index) };
  }
  for (const actor of actors) {
    const org = index.get(index.get(actor, 'PractitionerRole')?.organization, 'Organization');
    if (org !== undefined) return { unit: unitFacts(org, index) };
  }
  return undefined;
}

type Money = NonNullable<SubExtension['valueMoney']>;

export interface PatientFee {
  price?: Money;
  reduction?: Money;
  reason?: string;
}

/**
 * Money the COS API can tell as a fee: Swedish kronor (the currency named so, or none named: the API's
 * numbers are kronor and name none), as written an amount of whole öre, not below zero (isKronorAmount).
 */
const inKronor = (money: Money): boolean => (money.currency === undefined || money.currency === 'SEK')
  && (money.value === undefined || isKronorAmount(writtenNumber(money, 'value') ?? String(money.value)));

/**
 * The Appointment's `patient-fee` extension: its price, reduction and reduction reason; undefined without
 * one. A price or reduction not in kronor (inKronor) leaves both out (the reason stays): told
 * as kronor, 200 EUR less 30 USD was paid as 170 SEK, a reduction of -50 SEK as 300 SEK for 250 (hostile
 * review helper-170, F1). So a booking shows no amount, and the payment writes the amount as unknown.
 */
export function feeOf(appointment: Appointment): PatientFee | undefined {
  const fee = extensionOf(appointment.extension, PATIENT_FEE);
  if (fee === undefined) return undefined;
  const price = partOf(fee, 'price')?.valueMoney;
  const reduction = partOf(fee, 'reduction')?.valueMoney;
  const told = [price, reduction].every((money) => money === undefined || inKronor(money));
  const reason = partOf(fee, 'reductionReason')?.valueString;
  return { ...(told ? { price, reduction } : {}), reason };
}

const isStaff = (p: Participant): boolean => STAFF_TYPES.has(referenceType(p.actor));

/** The participant whose type has `PPRF`, else the first Practitioner or PractitionerRole. */
export const mainPerformer = (appointment: Appointment): Participant | undefined =>
  appointment.participant.find((p) => isStaff(p) && p.type?.some((t) => hasCode(t, PARTICIPATION_TYPE, 'PPRF')))
  ?? appointment.participant.find(isStaff);

/** The other Practitioner and PractitionerRole participants, in order. */
export const otherStaff = (appointment: Appointment, main: Participant | undefined): Participant[] =>
  appointment.participant.filter((p) => p !== main && isStaff(p));
