/**
 * What the service does with each login at the region (docs/sign-in.md#what-the-person-sees): an
 * audit record of every one, signed in or refused, then a log line and the counter. A login that
 * cannot be recorded signs nobody in (fail closed); a refusal that cannot be recorded is refused
 * anyway, and the log says the record is missing. The records name no patient, so no access log shows
 * them; the log lines name no person.
 */
import { randomUUID } from 'node:crypto';
import type { LoginEvents, LoginRefusal } from '../adapters/auth-server/region-login.js';
import type { AuditTrail, OutcomeRecord } from '../ports/audit-trail.port.js';
import type { Clock } from '../ports/clock.port.js';

/** The audit operation of a login at the region: who signed in, through which app, or that nobody did. */
export const REGION_LOGIN_OPERATION = 'regionLogin';

/** How each refusal is told apart in the audit trail: 400 not this login or not this browser, 401 not signed in by the region, 502 the region would not serve the service. */
const REFUSED: Readonly<Record<LoginRefusal, Pick<OutcomeRecord, 'outcome' | 'status'>>> = {
  'not-here': { outcome: 'denied', status: 400 },
  refused: { outcome: 'denied', status: 401 },
  'region-failed': { outcome: 'failed', status: 502 },
};

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface LoginEventsDeps {
  /** The region's issuer (SIGN_IN_LOGIN_ISSUER), the actor's issuer in the record of a login. */
  regionIssuer: string;
  trail: AuditTrail;
  clock: Clock;
  logger: Logger;
  /** The counter of sign-ins that granted nothing, by kind. */
  countFailure(kind: 'login' | 'discovery'): void;
}

function recordOf(deps: LoginEventsDeps, fields: Pick<OutcomeRecord, 'outcome' | 'status' | 'sourceAddress'> & Partial<Pick<OutcomeRecord, 'actor' | 'clientId'>>): OutcomeRecord {
  const id = randomUUID();
  return { time: new Date(deps.clock.now()).toISOString(), requestId: id, serviceRequestId: id, operation: REGION_LOGIN_OPERATION, ...fields };
}

const errorOf = (error: unknown): { name: string; message: string } =>
  error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) };

export function regionLoginEvents(deps: LoginEventsDeps): LoginEvents {
  const { logger } = deps;
  return {
    loginSucceeded: async ({ accountId, subject, clientId, acr, sourceAddress }) => {
      try {
        await deps.trail.append(recordOf(deps, {
          actor: { issuer: deps.regionIssuer, subject, personId: accountId }, ...(clientId === undefined ? {} : { clientId }),
          outcome: 'allowed', status: 200, sourceAddress,
        }));
      } catch (error) {
        deps.countFailure('login');
        logger.warn({ clientId, err: errorOf(error) }, 'a sign-in at the region\'s login could not be audited: nobody was signed in');
        throw error;
      }
      logger.info({ clientId, acr }, 'sign-in at the region\'s login succeeded');
    },
    loginFailed: async ({ kind, reason, clientId, sourceAddress }) => {
      deps.countFailure('login');
      logger.warn({ clientId, reason }, 'sign-in at the region\'s login failed: nothing granted');
      try {
        await deps.trail.append(recordOf(deps, { ...(clientId === undefined ? {} : { clientId }), ...REFUSED[kind], sourceAddress }));
      } catch (error) {
        logger.warn({ clientId, err: errorOf(error) }, 'a refused sign-in at the region\'s login could not be audited (it was refused all the same)');
        throw error;
      }
    },
    discoveryFailed: (error) => {
      deps.countFailure('discovery');
      logger.warn({ issuer: deps.regionIssuer, err: errorOf(error) }, 'the region\'s login could not be discovered; retrying (sign-in pages answer 503 meanwhile)');
    },
  };
}
