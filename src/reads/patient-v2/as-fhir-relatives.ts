/**
 * The v2 layout's relatives as RelatedPersons about the patient (docs/upstream-fhir.md §3.5, the
 * `patientRelative` row read backwards): the relationship as text, the name as one string with its
 * given and family parts, the home and work phones, and the first address.
 */
import type { PatientRelative } from './answer.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import { fhirOnly } from '../as-fhir-common.js';
import { withContent } from '../as-fhir-patient.js';

const phone = (value: string | undefined, use: string) => (value === undefined ? [] : [{ system: 'phone', value, use }]);

function relatedPerson(r: PatientRelative, id: string, ctx: AsFhirContext): FhirResource {
  return fhirOnly({
    resourceType: 'RelatedPerson',
    id,
    // Relatives are the RelatedPersons the search finds active (§3.5); written without the
    // delegation tag, so a relative gives no right (§4).
    active: true,
    patient: { reference: ctx.patientReference },
    relationship: r.patientRelativeType === undefined ? undefined : [{ text: r.patientRelativeType }],
    name: withContent([fhirOnly({
      text: r.patientRelativeName,
      family: r.patientRelativeFamilyName,
      // The given names as the record joins them: one string, copied as written.
      given: r.patientRelativeGivenName === undefined ? undefined : [r.patientRelativeGivenName],
    })]),
    telecom: [...phone(r.patientRelativeHomePhonenumber, 'home'), ...phone(r.patientRelativeWorkPhonenumber, 'work')],
    address: withContent([fhirOnly({
      text: r.patientRelativeAddress,
      line: [r.patientRelativeCOAddress, r.patientRelativeStreetAddress].filter((l) => l !== undefined),
      postalCode: r.patientRelativePostalCode,
      city: r.patientRelativeCity,
    })]),
  });
}

/**
 * Each relative once. A relative has no record id of its own (the layout's order has no FHIR home),
 * so its id is made from the patient's and its place in the list.
 */
export const relatedPersons = (relatives: readonly PatientRelative[], ctx: AsFhirContext): FhirResource[] =>
  relatives.map((r, i) => relatedPerson(r, ctx.idOf('RelatedPerson', { root: ctx.idRoot, extension: `${ctx.patientReference}|relative|${i}` }), ctx));
