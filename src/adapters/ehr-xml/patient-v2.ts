/** PatientEHRExtracts (ns urn:example:ehr:patient-v2:1), a mirror of the vendor's patient information v2 -> PatientV2[]. */
import { PatientV2Schema, type PatientV2 } from '../../domain/records/index.js';
import { mirrorReading } from './mirror-document.js';

export const patientV2Reading = mirrorReading<PatientV2>('PatientEHRExtracts', PatientV2Schema);
