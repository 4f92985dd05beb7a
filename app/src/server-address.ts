/**
 * A server's address as the app joins paths to it and checks what lies below it: the FHIR server's
 * (load.ts, signed-in-issuer.ts), and every address the person's token may go to (token-guard.ts).
 */

/** `address` with exactly one closing slash, as fhirclient joins a path to its server's (its `absolute`, lib.js). */
export const withSlash = (address: string): string => `${address.replace(/\/+$/, '')}/`;

/** `address` with its closing slash, as a URL reads it (`http://Host:80/fhir` -> `http://host/fhir/`): what lies below it starts so. */
export const below = (address: string): string => new URL(withSlash(address)).href;
