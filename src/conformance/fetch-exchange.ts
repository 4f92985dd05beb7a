/**
 * The kit's own transport to the FHIR server: fetch (undici's, so it can present the TLS client
 * certificate of EHR_TLS_* as the service does), redirects not followed, each request bounded in
 * time, each body capped as the service caps it (FHIR_MAX_PAGE_BYTES). The service's pool and
 * circuit breaker are not needed to ask these questions once.
 */
import { Agent, fetch, type Response } from 'undici';
import type { Authorization } from '../adapters/ehr-fhir/adapter/transport-exchange.js';
import type { FhirAnswer, FhirExchange } from '../adapters/ehr-fhir/client/fhir-exchange.js';
import { madeByCache, PAST_CACHES } from '../adapters/ehr-http/past-caches.js';
import type { EhrTls } from '../adapters/ehr-http/transport.js';
import { FHIR_MAX_PAGE_BYTES } from '../adapters/ehr-fhir/adapter/options.js';
import { BodyTooLargeError, readCappedBytes } from '../adapters/http-client/read-capped.js';
import { EhrError } from '../domain/ehr-error.js';

async function cappedBody(res: Response, maxBodyBytes: number): Promise<Buffer> {
  if (res.body === null) return Buffer.alloc(0);
  try {
    return await readCappedBytes(res.body, maxBodyBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) throw new EhrError('bad-response', `an answer over FHIR_MAX_PAGE_BYTES (${maxBodyBytes} bytes)`);
    throw err;
  }
}

/** `authorization` (FHIR_AUTH=smart-backend) is asked for each request's header and told of a 401, as the service's transport does. */
export function fetchExchange(requestTimeoutMs: number, tls?: EhrTls, authorization?: Authorization, maxBodyBytes = FHIR_MAX_PAGE_BYTES): FhirExchange {
  const dispatcher = tls === undefined ? undefined : new Agent({ connect: { ...tls } });
  return async (url, init): Promise<FhirAnswer> => {
    const signal = init.signal === undefined ? AbortSignal.timeout(requestTimeoutMs) : AbortSignal.any([init.signal, AbortSignal.timeout(requestTimeoutMs)]);
    // Asked as the service asks: past any cache in between, and never taken from one (ehr-http/past-caches.ts; re-review helper-194, F2).
    const headers = { ...(init.method === 'GET' ? PAST_CACHES : {}), ...init.headers, ...(authorization === undefined ? {} : { authorization: await authorization.header() }) };
    let res: Response;
    try {
      res = await fetch(url, { method: init.method, headers, body: init.body, signal, redirect: 'manual', ...(dispatcher === undefined ? {} : { dispatcher }) });
    } catch (err) {
      // fetch's words may name the URL, and with it an identity number.
      throw new EhrError(signal.aborted ? 'timeout' : 'bad-response', signal.aborted ? 'no answer in time' : `no answer (${err instanceof Error ? err.name : 'error'})`);
    }
    if (init.method === 'GET' && madeByCache(res.headers.get('age') ?? undefined)) {
      await res.body?.cancel();
      throw new EhrError('bad-response', 'an answer made by a cache in between, not the server (Age)');
    }
    if (res.status === 401) authorization?.refused();
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await cappedBody(res, maxBodyBytes) };
  };
}
