/**
 * FHIR's error answer (docs/fhir-api.md#errors): one OperationOutcome issue whose code follows the
 * status, and whose diagnostics are the same words a COS caller gets: what to do, never a stack, an
 * upstream text or personal data.
 */
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

/** The issue code of each status the FHIR door answers with (docs/fhir-api.md#errors lists them: test/docs/fhir-errors.test.ts). */
export const OUTCOME_CODES: Readonly<Record<number, string>> = {
  400: 'invalid', 401: 'login', 403: 'forbidden', 404: 'not-found', 405: 'not-supported', 406: 'not-supported',
  408: 'timeout', 409: 'conflict', 413: 'too-costly', 415: 'not-supported', 429: 'throttled', 431: 'too-long', 501: 'not-supported', 502: 'transient', 503: 'transient', 504: 'timeout',
};

export function operationOutcome(status: number, message: string): Record<string, unknown> {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code: OUTCOME_CODES[status] ?? (status >= 500 ? 'exception' : 'processing'), diagnostics: message }],
  };
}

/** Whether a path (below the base path) is the FHIR API's, so even an unknown one answers in its shape. */
export const isFhirPath = (path: string): boolean => /^\/(api\/open\/)?fhir(\/|$|\?)/.test(path);
