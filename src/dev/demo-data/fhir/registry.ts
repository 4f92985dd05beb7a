/**
 * The delegation registry as tagged RelatedPersons (docs/upstream-fhir.md#4-the-delegation-registry):
 * one per row of the demo actor's registry, identified by the actor's number, about the patient,
 * carrying the delegation tag and the row's dates.
 */
import { compactDateToIso } from '../../../domain/time/local-time.js';
import type { DemoClock } from '../clock.js';
import { DEMO_PEOPLE, demoPerson, type DemoPerson } from '../people.js';
import { relationshipRows, type RelationshipRow } from '../relationships.js';
import { DEMO_FHIR_SETTINGS, meta, patientRef, personNumberIdentifier, type FhirResource } from './fhir-base.js';
import { personName } from './parties.js';

const ROLE_CODE = 'http://terminology.hl7.org/CodeSystem/v3-RoleCode';
const CODES: Readonly<Record<RelationshipRow['type'], { code: string; display: string; text: string }>> = {
  guardian: { code: 'GUARD', display: 'guardian', text: 'Vårdnadshavare' },
  'power-of-attorney': { code: 'POWATT', display: 'power of attorney', text: 'Ombud' },
  partner: { code: 'SPS', display: 'spouse', text: 'Make/maka/partner' },
};

function relatedPerson(actor: DemoPerson, row: RelationshipRow, clock: DemoClock): FhirResource {
  const patient = demoPerson(row.patient);
  const code = CODES[row.type];
  return {
    resourceType: 'RelatedPerson', id: `rp-${actor.slotBase}-${patient.slotBase}-${code.code.toLowerCase()}`,
    meta: meta(`${row.validFrom.slice(0, 8)}090000`, clock, { tag: [{ ...DEMO_FHIR_SETTINGS.delegationTag, display: 'Får företräda patienten' }] }),
    active: true,
    patient: patientRef(patient),
    identifier: [personNumberIdentifier(actor)],
    relationship: [{ coding: [{ system: ROLE_CODE, code: code.code, display: code.display }], text: code.text }],
    name: [personName(actor)],
    period: { start: compactDateToIso(row.validFrom), ...(row.validTo === undefined ? {} : { end: compactDateToIso(row.validTo) }) },
  };
}

export const registry = (clock: DemoClock): FhirResource[] =>
  DEMO_PEOPLE.flatMap((actor) => relationshipRows(actor.id, clock).map((row) => relatedPerson(actor, row, clock)));
