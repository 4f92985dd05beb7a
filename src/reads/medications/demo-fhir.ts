/**
 * The demo's prescriptions in FHIR (docs/upstream-fhir.md#39-medications-operation-9): one
 * MedicationRequest per treatment, its product a shared Medication (NPL id and ATC code), its
 * dosage one Dosage (from its first to its last moment, so many times a day), an invalidated
 * treatment `stopped`, the registrar its `recorder`, the exchange in the region's code system.
 */
import { contactsOf } from '../../dev/demo-data/appointments.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { exchangeText, PRESCRIPTIONS, PRODUCTS, ROUTES, type DoseSpec, type PrescriptionSpec } from './demo-data.js';
import { EXCHANGE_SYSTEM, prescriptionTiming } from './demo-xml.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { decimalValue, instant, LOCAL_SYSTEMS, meta, patientRef, ref, roleId, SYSTEMS, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';
import { SINCE } from '../../dev/demo-data/fhir/parties.js';

const EDQM = 'http://standardterms.edqm.eu';
const medicationId = (key: keyof typeof PRODUCTS): string => `med-${key}`;

function medication(key: keyof typeof PRODUCTS, clock: DemoClock): FhirResource {
  const p = PRODUCTS[key];
  const [atcCode = '', ...atcName] = p.atc.split(' ');
  return {
    resourceType: 'Medication', id: medicationId(key), meta: meta(SINCE, clock),
    code: {
      coding: [{ system: SYSTEMS.npl, code: p.nplId, display: p.tradeName }, { system: SYSTEMS.atc, code: atcCode, display: atcName.join(' ') }],
      text: p.tradeName,
    },
    form: text(p.form),
    ingredient: [{ itemCodeableConcept: text(atcName.join(' ')), isActive: true, strength: { numerator: { ...decimalValue(p.strength), unit: p.unit }, denominator: { value: 1 } } }],
  };
}

/** Every product of the demo, shared by the prescriptions as a formulary is. */
export const demoMedications = (clock: DemoClock): FhirResource[] => (Object.keys(PRODUCTS) as (keyof typeof PRODUCTS)[]).map((k) => medication(k, clock));

const quantity = (value: string, unit: string) => ({ ...decimalValue(value), unit });
const doseAndRate = (d: DoseSpec) => (d.min === d.max ? { doseQuantity: quantity(d.min, d.unit) } : { doseRange: { low: quantity(d.min, d.unit), high: quantity(d.max, d.unit) } });

function dosageInstruction(spec: PrescriptionSpec, start: string, end: string | undefined, zone: string) {
  const route = ROUTES[spec.route];
  const times = spec.doses.flatMap((d) => (d.time === undefined ? [] : [`${d.time.slice(0, 2)}:${d.time.slice(2, 4)}:00`]));
  const first = spec.doses[0];
  return {
    sequence: 1,
    text: spec.dosageText,
    timing: {
      repeat: {
        boundsPeriod: { start: instant(start, zone), ...(end === undefined ? {} : { end: instant(end, zone) }) },
        frequency: spec.doses.length, period: 1, periodUnit: 'd',
        ...(times.length === 0 ? {} : { timeOfDay: times }),
      },
    },
    asNeededBoolean: spec.whenNeeded,
    route: { coding: [{ system: EDQM, code: route.code, display: route.name }], text: route.name },
    ...(first === undefined ? {} : { doseAndRate: [doseAndRate(first)] }),
  };
}

function request(spec: PrescriptionSpec, person: DemoPerson, clock: DemoClock, encounterId: string | undefined): FhirResource {
  const { created, start, end, invalidated } = prescriptionTiming(spec, clock);
  return {
    resourceType: 'MedicationRequest', id: `mr-${spec.treatmentId}`, meta: meta(invalidated ?? created, clock),
    identifier: [{ system: LOCAL_SYSTEMS.treatment, value: spec.treatmentId }],
    status: invalidated === undefined ? 'active' : 'stopped',
    intent: 'order',
    category: [text(spec.prescriptionType)],
    medicationReference: ref('Medication', medicationId(spec.product)),
    subject: patientRef(person),
    ...(encounterId === undefined ? {} : { encounter: ref('Encounter', encounterId) }),
    authoredOn: instant(created, clock.zone),
    requester: ref('PractitionerRole', roleId(spec.prescriber)),
    ...(spec.registrar === undefined ? {} : { recorder: ref('PractitionerRole', roleId(spec.registrar)) }),
    reasonCode: [text(spec.reason)],
    courseOfTherapyType: text(spec.medicationType),
    dosageInstruction: [dosageInstruction(spec, start, end, clock.zone)],
    substitution: {
      allowedCodeableConcept: {
        coding: [{ system: `urn:oid:${EXCHANGE_SYSTEM}`, display: exchangeText(spec.exchangeAllowed) }],
      },
    },
  };
}

export function medicationRequests(person: DemoPerson, clock: DemoClock): FhirResource[] {
  const contacts = new Map(contactsOf(person, clock).map((c) => [c.n, c.contactId]));
  return (PRESCRIPTIONS[person.id] ?? []).map((spec) => request(spec, person, clock, spec.contact === undefined ? undefined : contacts.get(spec.contact)));
}
