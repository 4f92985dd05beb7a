import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { JwtAccessTokenVerifier } from '../../src/adapters/auth-jwks/jwt-access-token-verifier.js';
import { HmacPageCursors } from '../../src/adapters/page-cursor/hmac-page-cursors.js';
import { InProcessCoordinator } from '../../src/adapters/write-coordination/in-process-coordinator.js';
import { ReadAccessLog } from '../../src/domain/access-log/read-access-log.js';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { MarkArrived } from '../../src/domain/use-cases/mark-arrived.js';
import { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import { RegisterPayment } from '../../src/domain/use-cases/register-payment.js';
import type { RouteDependencies } from '../../src/http/routes/dependencies.js';
import type { AccessLogReader } from '../../src/ports/access-log.port.js';
import type { Clock } from '../../src/ports/clock.port.js';
import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';
import type { WriteCoordinator } from '../../src/ports/write-coordinator.port.js';
import { TEST_CLIENT_ID, type TestIssuer } from './test-issuer.js';

export const ZONE = 'Europe/Stockholm';
export const KEY = 'test-subscription-key-0123456789';
export const ALL_SCOPES = [
  'user/Appointment-read', 'user/Patient-read', 'user/Contact-read', 'user/AttentionSignal-read',
  'user/VideoMeeting-read', 'user/MedicationPrescription-read', 'user/JournalNote-read',
  'user/Appointment-write', 'user/Payment-write', 'user/AccessLog-read',
].join(' ');

/**
 * The HTTP settings of a test app. Load shedding stays out of the way (a busy CI machine must not
 * shed test requests); the tests that are about shedding set their own thresholds.
 */
export const TEST_HTTP_CONFIG = {
  basePath: '', rateLimitMax: 10_000, rateLimitWindowMs: 5000, trustProxy: [] as string[], pressureMaxEventLoopDelayMs: 60_000,
};

/** The use cases over one EHR, wired as src/container.ts wires them, with the default arrival window. */
export function useCasesOver(ehr: EhrRecords & DelegationRegistry, clock: Clock, coordinator: WriteCoordinator = new InProcessCoordinator()): RouteDependencies {
  return {
    zone: ZONE,
    accessPolicy: new PatientAccessPolicy(ehr, ehr, clock, ZONE),
    readPatientData: new ReadPatientData(ehr, ZONE),
    markArrived: new MarkArrived(ehr, clock, { beforeMinutes: 120, afterMinutes: 30 }, coordinator),
    registerPayment: new RegisterPayment(ehr, coordinator),
  };
}

/** The access log over `reader`, its cursors sealed with `secret` (random: a fresh one per app), as src/container.ts wires it. */
export function accessLogOver(reader: AccessLogReader, clientNames: ReadonlyMap<string, string> = new Map(), secret: Buffer = randomBytes(32)): ReadAccessLog {
  return new ReadAccessLog(reader, new HmacPageCursors(secret), ZONE, clientNames);
}

/** The production verifier, trusting the loopback test issuer; TEST_CLIENT_ID is the one listed client (AUTH_CLIENT_IDS). */
export function verifierFor(issuer: TestIssuer, clock: Clock): JwtAccessTokenVerifier {
  return new JwtAccessTokenVerifier({
    issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
  });
}

export type CallOptions = InjectOptions & { token?: string; key?: string | null; patient?: string };

/** Tokens and requests as the tests speak them: a person or a kiosk, a key (or none), a `patient` header. */
export function clientOf(app: FastifyInstance, issuer: TestIssuer) {
  return {
    personToken: (personId: string, claims: Record<string, unknown> = {}) =>
      issuer.sign({ scope: ALL_SCOPES, patient: personId, sub: `person-${personId.slice(-4)}`, ...claims }),
    clientToken: (claims: Record<string, unknown> = {}) => issuer.sign({ scope: ALL_SCOPES, sub: 'kiosk-1', client_id: TEST_CLIENT_ID, ...claims }),
    call: ({ token, key, patient, headers, ...rest }: CallOptions): Promise<LightMyRequestResponse> => app.inject({
      ...rest,
      headers: {
        ...(key === null ? {} : { 'ocp-apim-subscription-key': key ?? KEY }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...(patient === undefined ? {} : { patient }),
        ...headers,
      },
    }),
  };
}
