/** The demo people's data of getPatient (the patient's own record), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { patient } from '../../dev/demo-data/fhir/parties.js';
import { patientDocument } from './demo-xml.js';

export const demo = { xml: patientDocument, fhir: { person: (person, clock) => [patient(person, clock)] } } satisfies ReadDemo;
