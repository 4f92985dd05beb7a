import type { FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { PatientAccess } from '../../domain/access/patient-access.js';
import type { Write } from '../../domain/operations/operation.js';
import { OPERATIONS } from '../../domain/operations/table.js';
import type { ResultRecord } from '../../domain/records/index.js';
import type { PaymentType } from '../../domain/writes/payment-types.js';
import { confirmsBooking, UNCONFIRMED_WRITE_RESULT } from '../../domain/writes/write-outcomes.js';
import { isUnconfirmedOfCheckedBooking, isUnconfirmedWrite } from '../../domain/ehr-error.js';
import { isEhrWriteAnswer } from '../../ports/audit-trail.port.js';
import { callerGone } from '../caller-gone.js';
import { named } from '../openapi/schema-names.js';
import { accessFor, targetPatientOf } from '../request-patient.js';
import type { ApiRoute } from './api-routes.js';
import type { RouteDependencies } from './dependencies.js';
import type { RouteKind, RouteParts } from './route-parts.js';

const writeOf = (route: ApiRoute): Write => {
  const op = OPERATIONS[route.operations[0]];
  if (op.handler !== 'arrival' && op.handler !== 'payment') throw new Error(`${route.operations[0]} is not a write`);
  return op;
};

const answerSchema = ({ answer }: Write): TSchema => {
  const item = named(answer.item, answer.schemaName);
  return answer.array ? Type.Array(item, { maxItems: 1 }) : item;
};

/**
 * A write's route: who, for whom, the attempt audited before the use case may ask the EHR for
 * anything (with the store down, nothing changes: docs/contract.md#what-never-happens), then the
 * use case. Domain outcomes (OK, INFO, ERROR) are 200 answers, as the spec says.
 */
type Execute<B> = (access: PatientAccess, booking: B, abandoned: AbortSignal) => Promise<ResultRecord | ResultRecord[]>;

/** The booking a write's request names, and a payment's type: what the use case is asked and its outcome record may name (AuditContext.booking). */
interface Booking {
  contactId: string;
  paymentType?: PaymentType;
}

/**
 * What the EHR answered, as the outcome record keeps it: `OK ARRIVAL_REGISTERED` (the payment's answer is
 * a list of one), or the ResultCode alone where the EHR's ReasonCode is none the record may hold.
 */
function writeResultOf(answer: ResultRecord | ResultRecord[]): string | undefined {
  const result = Array.isArray(answer) ? answer[0] : answer;
  if (result === undefined) return undefined;
  const withReason = `${result.ResultCode} ${result.Any?.[0]?.ReasonCode ?? ''}`;
  if (isEhrWriteAnswer(withReason)) return withReason;
  return isEhrWriteAnswer(result.ResultCode) ? result.ResultCode : undefined;
}

/**
 * How a write names its booking: `bookingOf`, what the request names; `checkedBeforeSending`, whether its use case sends the
 * write only for a booking it found among the patient's (an arrival's, MarkArrived), so that a write sent and not confirmed
 * names that booking too (hostile review helper-138, F4). A payment is sent unchecked: only the EHR's answer shows it.
 */
interface BookingNamed<B> {
  bookingOf: (request: FastifyRequest) => B;
  checkedBeforeSending: boolean;
}

function writeRoute<B extends Booking>(route: ApiRoute, deps: RouteDependencies, { bookingOf, checkedBeforeSending }: BookingNamed<B>, execute: Execute<B>): RouteParts {
  const op = writeOf(route);
  return {
    ok: answerSchema(op),
    body: op.body,
    handle: async (request, reply) => {
      // Heard from the start: a caller that leaves during the access check is gone by its turn too.
      const abandoned = callerGone(reply);
      const patientId = targetPatientOf(request, deps.accessPolicy);
      const access = await accessFor(request, deps.accessPolicy, patientId);
      await request.server.recordWriteAttempt(request);
      const booking = bookingOf(request);
      const answer = await execute(access, booking, abandoned).catch((err: unknown) => {
        // Sent and not confirmed: its outcome record says the outcome is unknown, not only "failed".
        if (isUnconfirmedWrite(err)) {
          request.audit.writeResult = UNCONFIRMED_WRITE_RESULT;
          // The booking, and a payment's type asked, where it was found the patient's before the write was sent.
          if (checkedBeforeSending || isUnconfirmedOfCheckedBooking(err)) request.audit.booking = booking;
        }
        throw err;
      });
      request.audit.writeResult = writeResultOf(answer);
      const result = Array.isArray(answer) ? answer[0] : answer;
      // Named only once the answer shows the booking is the patient's: never a caller's text about nobody's (helper-127, F3).
      // A payment's type only where this request paid: ALREADY_PAID keeps the first payment's, which the EHR does not
      // tell, and the type asked was read as the one paid (hostile review helper-170, F4).
      if (result !== undefined && confirmsBooking(result)) request.audit.booking = result.ResultCode === 'OK' ? booking : { contactId: booking.contactId };
      return answer;
    },
  };
}

/** Operation 2: the appointment named by `id` marked arrived. */
export const arrivalRoute: RouteKind = (route, deps) => writeRoute(route, deps, {
  bookingOf: (request) => ({ contactId: (request.query as { id: string }).id }),
  checkedBeforeSending: true,
}, (access, { contactId }, abandoned) => deps.markArrived.execute(access, contactId, abandoned));

/** Operation 1: the visit of an arrived appointment registered as paid. */
export const paymentRoute: RouteKind = (route, deps) => writeRoute(route, deps, {
  bookingOf: (request) => {
    const { contactId, paymentType } = request.body as { contactId: string; paymentType: PaymentType };
    return { contactId, paymentType };
  },
  checkedBeforeSending: false,
}, (access, { contactId, paymentType }, abandoned) => deps.registerPayment.execute(access, contactId, paymentType, abandoned));
