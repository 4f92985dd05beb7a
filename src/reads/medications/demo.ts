/** The demo people's data of getMedications (the patient's prescriptions), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { demoMedications, medicationRequests } from './demo-fhir.js';
import { medicationsDocument } from './demo-xml.js';

export const demo = { xml: medicationsDocument, fhir: { shared: demoMedications, person: medicationRequests } } satisfies ReadDemo;
