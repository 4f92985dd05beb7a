import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { StaticSubscriptionKeys } from '../../src/adapters/subscription-keys/static-subscription-keys.js';
import { buildApp } from '../../src/http/app.js';
import { scopeGrantsOf } from '../../src/http/fhir/fhir-api.js';
import { fhirForms } from '../../src/start/fhir-api.js';
import type { MemoryAuditTrail } from '../fakes/memory-audit-trail.js';
import { apiScopes } from '../../src/domain/access/scopes.js';
import { JwtAccessTokenVerifier } from '../../src/adapters/auth-jwks/jwt-access-token-verifier.js';
import { SealedPageCursors } from '../../src/adapters/page-cursor/sealed-page-cursors.js';
import { InProcessCoordinator } from '../../src/adapters/write-coordination/in-process-coordinator.js';
import { ReadAccessLog } from '../../src/domain/access-log/read-access-log.js';
import { PatientAccessPolicy } from '../../src/domain/access/patient-access.js';
import { MarkArrived } from '../../src/domain/use-cases/mark-arrived.js';
import { ReadPatientData } from '../../src/domain/use-cases/read-patient-data.js';
import type { ReleasePolicy } from '../../src/domain/release/release-policy.js';
import { RegisterPayment } from '../../src/domain/use-cases/register-payment.js';
import type { RouteDependencies } from '../../src/http/routes/dependencies.js';
import type { AccessLogReader } from '../../src/ports/access-log.port.js';
import type { AnswerMemory } from '../../src/ports/answer-memory.port.js';
import type { Clock } from '../../src/ports/clock.port.js';
import type { DelegationRegistry } from '../../src/ports/delegation-registry.port.js';
import type { EhrRecords } from '../../src/ports/ehr-records.port.js';
import type { FhirIds } from '../../src/ports/fhir-ids.port.js';
import type { WriteCoordinator } from '../../src/ports/write-coordinator.port.js';
import { TEST_CLIENT_ID, type TestIssuer } from './test-issuer.js';

export const ZONE = 'Europe/Stockholm';
export const KEY = 'test-subscription-key-0123456789';
/** Every scope of the operation table. */
export const ALL_SCOPES = [...apiScopes().keys()].join(' ');

/**
 * The HTTP settings of a test app. Load shedding stays out of the way (a busy CI machine must not
 * shed test requests); the tests that are about shedding set their own thresholds.
 */
export const TEST_HTTP_CONFIG = {
  basePath: '', rateLimitMax: 10_000, rateLimitWindowMs: 5000, trustProxy: [] as string[], pressureMaxEventLoopDelayMs: 60_000,
};

/**
 * The use cases over one EHR, wired as src/start/container.ts wires them, with the default arrival
 * window; `ids` reads a token's smart_patient (none without the FHIR API).
 */
export function useCasesOver(
  ehr: EhrRecords & DelegationRegistry, clock: Clock, coordinator: WriteCoordinator = new InProcessCoordinator({ waitMs: 10_000 }), ids?: FhirIds,
): Omit<RouteDependencies, 'readAccessLog'> {
  return {
    zone: ZONE,
    accessPolicy: new PatientAccessPolicy(ehr, ehr, clock, ZONE, ids === undefined ? undefined : (id) => ids.identityNumberOf(id)),
    scopeGrants: scopeGrantsOf(fhirForms()),
    readPatientData: new ReadPatientData(ZONE),
    markArrived: new MarkArrived(clock, { beforeMinutes: 120, afterMinutes: 30 }, coordinator),
    registerPayment: new RegisterPayment(coordinator),
  };
}

/**
 * The access log over `reader` on the app's `clock`, its cursors sealed with `secret` (random: a fresh one per
 * app), as src/start/container.ts wires it.
 */
export function accessLogOver(
  reader: AccessLogReader, clock: Clock, options: { clientNames?: ReadonlyMap<string, string>; secret?: Buffer; policy?: ReleasePolicy } = {},
): ReadAccessLog {
  return new ReadAccessLog(reader, new SealedPageCursors(options.secret ?? randomBytes(32)), {
    zone: ZONE, clock, ...(options.clientNames ? { clientNames: options.clientNames } : {}), ...(options.policy ? { policy: options.policy } : {}),
  });
}

/** The production verifier, trusting the loopback test issuer; TEST_CLIENT_ID is the one listed client (AUTH_CLIENT_IDS). */
export function verifierFor(issuer: TestIssuer, clock: Clock): JwtAccessTokenVerifier {
  return new JwtAccessTokenVerifier({
    issuer: issuer.issuer, audience: 'patient-data-access', patientClaim: 'patient', clientIds: [TEST_CLIENT_ID], clock, onWarning: () => undefined,
  });
}

export type CallOptions = InjectOptions & { token?: string; key?: string | null; patient?: string };

/** What every test app offers its tests: tokens and requests (clientOf). */
export type AppClient = ReturnType<typeof clientOf>;

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

/** The real HTTP app over a remote EHR adapter (xml-http, fhir-r4), with the test issuer, the in-memory audit trail and one subscription key. */
export async function buildRemoteApp(
  ehr: EhrRecords & DelegationRegistry & { readonly answerMemory?: AnswerMemory }, clock: Clock, issuer: TestIssuer, audit: MemoryAuditTrail, logger: Logger,
): Promise<FastifyInstance> {
  const app = await buildApp({
    config: TEST_HTTP_CONFIG,
    clock, logger, ehr, auditTrail: audit, tokenVerifier: verifierFor(issuer, clock), ...useCasesOver(ehr, clock), readAccessLog: accessLogOver(audit, clock),
    subscriptionKeys: new StaticSubscriptionKeys(new Map([['test', KEY]])),
    // As the composition root wires it (src/start/container.ts).
    ...(ehr.answerMemory === undefined ? {} : { answerMemory: ehr.answerMemory }),
  });
  await app.ready();
  return app;
}
