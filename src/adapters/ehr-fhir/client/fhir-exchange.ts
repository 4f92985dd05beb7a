/**
 * The one thing the FHIR client needs from a transport: send a request to a URL, give back the
 * status, the headers and the body. The shared EHR transport (pool, deadline, breaker, TLS,
 * src/adapters/ehr-http) is wired onto it in the adapter; tests use plain fetch against the
 * development server. Faults of the transport itself are the transport's EhrErrors.
 */
export interface FhirRequestInit {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** Aborted when the port call's deadline (EHR_TIMEOUT_MS) has passed. */
  signal?: AbortSignal;
}

export interface FhirAnswer {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body of the statuses the transport reads; absent for the others. */
  body: Buffer | string | undefined;
}

/** `url` is absolute: the base URL's, or a next link the client has checked. */
export type FhirExchange = (url: string, init: FhirRequestInit) => Promise<FhirAnswer>;

export const FHIR_JSON = 'application/fhir+json';
