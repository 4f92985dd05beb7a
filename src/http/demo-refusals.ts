import { ApiError, MESSAGES } from './api-error.js';
import { NO_TOKEN_HEADERS } from './error-mapping.js';
import type { KeysSent } from './subscription-key.js';

/**
 * Demo mode only (docs/contract.md#demo-mode): where a newcomer finds the demo's credentials. Paths
 * and an address, never a key or a secret itself.
 */
export interface DemoCredentials {
  /** The file in DATA_DIR holding the demo subscription key. */
  keyFile: string;
  /** The demo authorization server. */
  issuer: string;
  /** The file in DATA_DIR naming its clients and their secrets. */
  clientsFile: string;
}

/**
 * A refused subscription key. Outside demo mode the vendor's own words; in demo mode they go on to say
 * whether a key was sent at all and where the demo key is.
 */
export function keyRefusal(demo: DemoCredentials | undefined, sent: KeysSent): ApiError {
  if (demo === undefined) return new ApiError(401, MESSAGES.badSubscriptionKey);
  // Whichever of several keys is the demo key, the caller is told to send one: never which one it was.
  if (sent === 'several' || sent === 'empty') {
    const what = sent === 'several' ? 'more than one subscription key was sent;' : 'an empty subscription key was sent; leave it out, and';
    return new ApiError(401, `${MESSAGES.badSubscriptionKey} Demo mode: ${what} send the demo key, which is in ${demo.keyFile}, once, in the Ocp-Apim-Subscription-Key header.`);
  }
  const what = sent === 'one' ? `the key sent is not the demo key, which is in ${demo.keyFile}` : `no subscription key was sent; the demo key is in ${demo.keyFile}`;
  return new ApiError(401, `${MESSAGES.badSubscriptionKey} Demo mode: ${what}: send it in the Ocp-Apim-Subscription-Key header.`);
}

/** A request with no Authorization header at all: the bare challenge (RFC 6750 §3.1); in demo mode, where to get a token. */
export function noTokenRefusal(demo: DemoCredentials | undefined): ApiError {
  if (demo === undefined) return new ApiError(401, MESSAGES.invalidToken, NO_TOKEN_HEADERS);
  return new ApiError(401, `${MESSAGES.invalidToken} Demo mode: no bearer token was sent; get one from the demo authorization server at `
    + `${demo.issuer} (its clients and secrets are in ${demo.clientsFile}) and send it as Authorization: Bearer <token>.`, NO_TOKEN_HEADERS);
}
