import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ResultRecordSchema } from '../../domain/records/index.js';
import { accessFor, targetPatientOf } from '../patient-access.js';
import { errorResponses } from '../schemas/errors.js';
import {
  AppointmentChangeQuerySchema, AppointmentChangeSchema, NoQuerySchema, PatientHeadersSchema, PaymentSchema,
} from '../schemas/requests.js';
import type { RouteDependencies } from './dependencies.js';

/** Operations 1 and 2. Domain outcomes (OK, INFO, ERROR) are 200 answers, as the spec says. */
export const writeRoutes: FastifyPluginAsyncTypebox<RouteDependencies> = async (app, deps) => {
  app.put('/patients/appointments/', {
    config: { operation: 'changeAppointment', errorShape: 'status' },
    schema: {
      summary: 'Mark a booked appointment as arrived',
      operationId: 'changeAppointment',
      headers: PatientHeadersSchema,
      querystring: AppointmentChangeQuerySchema,
      body: AppointmentChangeSchema,
      response: { 200: ResultRecordSchema, ...errorResponses('status') },
    },
  }, async (request) => {
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const access = await accessFor(request, deps.accessPolicy, patientId);
    return deps.markArrived.execute(access, request.query.id);
  });

  app.post('/patients/paymentnotice/', {
    config: { operation: 'registerPayment', errorShape: 'status' },
    schema: {
      summary: 'Register that an arrived appointment is paid',
      operationId: 'registerPayment',
      headers: PatientHeadersSchema,
      querystring: NoQuerySchema,
      body: PaymentSchema,
      response: { 200: Type.Array(ResultRecordSchema), ...errorResponses('status') },
    },
  }, async (request) => {
    const patientId = targetPatientOf(request, deps.accessPolicy);
    const access = await accessFor(request, deps.accessPolicy, patientId);
    return deps.registerPayment.execute(access, request.body.contactId, request.body.paymentType);
  });
};
