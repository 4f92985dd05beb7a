/** The demo people's data of getVideoMeetings (the patient's video meetings), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { videoMeetingsDocument } from './demo-xml.js';

export const demo = { xml: videoMeetingsDocument, fhir: { writtenBy: 'getAppointments' } } satisfies ReadDemo;
