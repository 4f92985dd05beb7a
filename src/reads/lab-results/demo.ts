/** The demo people's data of getLabResults (the patient's lab results), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { labResults } from './demo-fhir.js';
import { labResultsDocument } from './demo-xml.js';

export const demo = { xml: labResultsDocument, fhir: { person: labResults } } satisfies ReadDemo;
