/** The demo people's data of getDiagnoses (the patient's diagnoses), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { diagnoses } from './demo-fhir.js';
import { diagnosesDocument } from './demo-xml.js';

export const demo = { xml: diagnosesDocument, fhir: { person: diagnoses } } satisfies ReadDemo;
