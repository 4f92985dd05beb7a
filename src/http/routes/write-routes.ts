import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ResultRecordSchema } from '../../domain/records/index.js';
import { documented } from '../openapi/operation-docs.js';
import { named } from '../openapi/schema-names.js';
import { accessFor, targetPatientOf } from '../patient-access.js';
import { errorResponses } from '../schemas/errors.js';
import {
  AppointmentChangeQuerySchema, AppointmentChangeSchema, NoQuerySchema, PatientHeadersSchema, PaymentSchema,
} from '../schemas/requests.js';
import type { RouteDependencies } from './dependencies.js';
import { atSpecAndVendorPath } from './vendor-paths.js';

const ResultRecord = named(ResultRecordSchema, 'ResultRecord');

/** Operations 1 and 2, at the spec's paths and the vendor's. Domain outcomes (OK, INFO, ERROR) are 200 answers, as the spec says. */
export const writeRoutes: FastifyPluginAsyncTypebox<RouteDependencies> = async (app, deps) => {
  const arrival = {
    ...documented('changeAppointment'),
    headers: PatientHeadersSchema,
    querystring: AppointmentChangeQuerySchema,
    body: AppointmentChangeSchema,
    response: { 200: ResultRecord, ...errorResponses('status') },
  };
  for (const at of atSpecAndVendorPath('/patients/appointments/', arrival)) app.put(at.url, {
    config: { operation: 'changeAppointment', errorShape: 'status' },
    schema: at.schema,
  }, async (request) => {
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const access = await accessFor(request, deps.accessPolicy, patientId);
    // Audited before the use case may ask the EHR for anything: with the store down, nothing changes (CONTRACT §5).
    await app.recordWriteAttempt(request);
    return deps.markArrived.execute(access, request.query.id);
  });

  const payment = {
    ...documented('registerPayment'),
    headers: PatientHeadersSchema,
    querystring: NoQuerySchema,
    body: PaymentSchema,
    response: { 200: Type.Array(ResultRecord, { maxItems: 1 }), ...errorResponses('status') },
  };
  for (const at of atSpecAndVendorPath('/patients/paymentnotice/', payment)) app.post(at.url, {
    config: { operation: 'registerPayment', errorShape: 'status' },
    schema: at.schema,
  }, async (request) => {
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const access = await accessFor(request, deps.accessPolicy, patientId);
    await app.recordWriteAttempt(request);
    return deps.registerPayment.execute(access, request.body.contactId, request.body.paymentType);
  });
};
