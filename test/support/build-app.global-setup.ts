/**
 * Builds the patient app into dist/app before the suite (vitest globalSetup), unless it is already
 * newer than its sources: the service serves those files at /app/, and the browser test opens them.
 */
import { buildPatientApp, patientAppIsCurrent } from '../../scripts/build-app.js';

export default async function setup(): Promise<void> {
  if (!await patientAppIsCurrent()) await buildPatientApp();
}
