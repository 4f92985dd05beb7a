/**
 * The next of kin of the v2 patient layout as RelatedPersons about the patient, without the
 * delegation tag (so they give no right, docs/upstream-fhir.md#4-the-delegation-registry): the same
 * relatives, names, work phone and home address as the XML form writes (patient-v2.ts).
 */
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { RELATIVES } from './demo-xml.js';
import { demoPerson, type DemoPerson } from '../../dev/demo-data/people.js';
import { meta, patientRef, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';

export function relatives(person: DemoPerson, clock: DemoClock): FhirResource[] {
  return (RELATIVES[person.id] ?? []).map((r) => {
    const kin = demoPerson(r.of);
    const given = kin.givenNames[0] ?? '';
    const home = kin.addresses[0];
    const phone = kin.phones[0];
    return {
      resourceType: 'RelatedPerson', id: `rp-${person.slotBase}-kin-${r.order}`,
      meta: meta(`${clock.today}000000`, clock),
      active: true,
      patient: patientRef(person),
      relationship: [{ text: r.type }],
      // Known to the patient's record by the name in use, as the XML form writes it.
      name: [{ use: 'official', text: `${given} ${kin.familyName}`, given: [given], family: kin.familyName }],
      ...(phone === undefined ? {} : { telecom: [{ system: 'phone', value: phone.number, use: 'work' }] }),
      ...(home === undefined ? {} : { address: [{ line: [home.street], postalCode: home.postcode, city: home.city }] }),
    };
  });
}
