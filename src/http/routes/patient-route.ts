import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PatientRecordSchema, PatientV2Schema } from '../../domain/records/index.js';
import { documented } from '../openapi/operation-docs.js';
import { named } from '../openapi/schema-names.js';
import { accessFor, targetPatientOf } from '../patient-access.js';
import { errorResponses } from '../schemas/errors.js';
import { PatientHeadersSchema, PatientQuerySchema } from '../schemas/requests.js';
import type { RouteDependencies } from './dependencies.js';
import { assertApiVersion } from './read-routes.js';
import { atSpecAndVendorPath } from './vendor-paths.js';

/** Operations 4 and 5: one path (and its vendor alias), the layout chosen by `api-version` (absent: older, v2: v2). */
export const patientRoute: FastifyPluginAsyncTypebox<RouteDependencies> = async (app, deps) => {
  const schema = {
    ...documented('getPatient'),
    headers: PatientHeadersSchema,
    querystring: PatientQuerySchema,
    response: {
      200: Type.Union([Type.Array(named(PatientRecordSchema, 'PatientRecord')), Type.Array(named(PatientV2Schema, 'PatientV2'))]),
      ...errorResponses('status'),
    },
  };
  for (const at of atSpecAndVendorPath('/patients/patient/', schema)) app.get(at.url, {
    config: { operation: 'getPatient', operationByVersion: { v2: 'getPatientV2' }, errorShape: 'status' },
    schema: at.schema,
  }, async (request) => {
    const version = request.query['api-version'];
    assertApiVersion(version, 'the older layout');
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const access = await accessFor(request, deps.accessPolicy, patientId);
    // The release policy concerns journal content only: nothing of the patient read is withheld.
    return version === 'v2' ? deps.readPatientData.patientV2(access) : (await deps.readPatientData.execute('patient', access, {})).records;
  });
};
