/** The demo people's data of getContacts (the patient's care contacts), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { admissionRooms, encounters } from './demo-fhir.js';
import { contactsDocument } from './demo-xml.js';

export const demo = { xml: contactsDocument, fhir: { shared: admissionRooms, person: encounters } } satisfies ReadDemo;
