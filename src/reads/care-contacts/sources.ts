/** Where each EHR gets getContacts from (src/reads/read-sources.ts). */
import { CONTACT_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { byPatient, includes } from '../../adapters/ehr-fhir/client/read-plan.js';
import { mirrorReading } from '../../adapters/ehr-xml/mirror-document.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { CareContactSchema } from './answer.js';
import { contactsAsFhir } from './as-fhir.js';
import { mapCareContacts } from './fhir.js';

export const getContacts = {
  xml: xmlDocument({
    path: 'contacts', namespace: 'urn:example:ehr:carecontact:2', reading: mirrorReading('ContactEHRExtracts', CareContactSchema),
    patients: (items) => items.flatMap((i) => i.contactEHRExtract.map((e) => e.patient?.patientID?.extension)),
    filtered: [{ path: ['contactEHRExtract'], time: ['contact', 'contactBeginDateTime'] }],
  }),
  fhir: {
    searches: [byPatient('Encounter', 'date', [...includes('Encounter:service-provider', 'Encounter:participant', 'Encounter:location',
      'iterate PractitionerRole:practitioner', 'iterate PractitionerRole:organization', 'iterate Organization:partof')])],
    follows: CONTACT_FOLLOWS,
    map: mapCareContacts,
  },
  asFhir: contactsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getContacts'>;
