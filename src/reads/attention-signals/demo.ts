/** The demo people's data of getAttentionSignals (the patient's attention signals), both forms (src/dev/demo-data/read-demo.ts). */
import type { ReadDemo } from '../../dev/demo-data/read-demo.js';
import { signalRoles, signals } from './demo-fhir.js';
import { attentionSignalsDocument } from './demo-xml.js';

export const demo = { xml: attentionSignalsDocument, fhir: { shared: signalRoles, person: signals } } satisfies ReadDemo;
