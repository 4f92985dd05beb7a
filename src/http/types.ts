import type { OperationName } from '../domain/access/operations.js';
import type { VerifiedToken } from '../ports/access-token-verifier.port.js';

/** What the audit record of a request says about whom it was for. */
export interface AuditContext {
  patientId?: string;
  delegation?: string;
  /** How many items the release policy withheld from the answer (CONTRACT §6); never which. */
  withheld?: number;
}

/** `status`: `{statusCode, message}` (spec shape 1); `error`: `{error, path, status, timestamp}` (shape 2). */
export type ErrorShape = 'status' | 'error';

declare module 'fastify' {
  interface FastifyRequest {
    subscription: string | undefined;
    token: VerifiedToken | undefined;
    audit: AuditContext;
    /** The service's own request id (src/http/request-id.ts); set when the request is first audited. */
    serviceRequestId: string | undefined;
  }
  interface FastifyInstance {
    /** Stores the attempt record of a write (src/http/plugins/audit.ts); throws AuditUnavailableError if it cannot. */
    recordWriteAttempt(request: FastifyRequest): Promise<void>;
  }
  interface FastifyContextConfig {
    operation?: OperationName;
    /** Where one route serves two operations, the one each `api-version` value selects. */
    operationByVersion?: Readonly<Record<string, OperationName>>;
    errorShape?: ErrorShape;
  }
}
