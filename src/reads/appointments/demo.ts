/** The demo people's data of getAppointments (the patient's appointments), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { appointments } from './demo-fhir.js';
import { bookingsDocument } from './demo-xml.js';

export const demo = { xml: bookingsDocument, fhir: { person: appointments } } satisfies ReadDemo;
