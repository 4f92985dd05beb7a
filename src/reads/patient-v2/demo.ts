/** The demo people's data of getPatientV2 (the patient's record with relatives), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { relatives } from './demo-fhir.js';
import { patientV2Document } from './demo-xml.js';

export const demo = { xml: patientV2Document, fhir: { person: relatives } } satisfies ReadDemo;
