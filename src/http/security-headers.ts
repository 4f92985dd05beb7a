import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** helmet's settings for a JSON API that no browser should render or frame. */
const HELMET_OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginResourcePolicy: { policy: 'same-origin' },
  referrerPolicy: { policy: 'no-referrer' },
  // As frame-ancestors 'none' says for browsers that read CSP; helmet's default SAMEORIGIN would let a page of
  // the service's own origin frame an answer, which CSP refuses (and the docs page and the app send DENY too).
  xFrameOptions: { action: 'deny' },
  // Set apart, and only on HTTPS answers: over plain HTTP the header means nothing (RFC 6797 §7.2).
  strictTransportSecurity: false,
} as const;

/** Sets the security headers on an answer, as helmet does. */
export type SecurityHeaders = (req: IncomingMessage, res: ServerResponse) => void;

/** What helmet does to a response, in its order: headers set, and headers removed. */
type Step = readonly ['set', string, string] | readonly ['remove', string];

/**
 * The steps helmet takes with these options, found by running it once against a response that only
 * writes them down. None of its settings above depends on the request (no CSP directive is a
 * function, no nonce), so every answer gets the same steps; helmet calls nothing else on the response.
 */
function helmetSteps(): Step[] {
  const steps: Step[] = [];
  const recorder = {
    setHeader: (name: string, value: string) => void steps.push(['set', name, String(value)]),
    removeHeader: (name: string) => void steps.push(['remove', name]),
  };
  let failed: unknown;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failed = err;
  });
  if (failed !== undefined) throw new Error(`helmet refused its settings: ${String(failed)}`);
  return steps;
}

/**
 * helmet's headers set from a list made once (issue 56 item 4): running helmet's chain of a dozen
 * middlewares for every request was part of the service's overhead over bare Fastify. The answers'
 * headers are byte for byte helmet's, in its order (test/http/security-headers.test.ts holds them
 * equal to `helmetEachRequest`, the unoptimised path).
 */
export function precomputedSecurityHeaders(): SecurityHeaders {
  const steps = helmetSteps();
  return (_req, res) => {
    for (const step of steps) {
      if (step[0] === 'set') res.setHeader(step[1], step[2]);
      else res.removeHeader(step[1]);
    }
  };
}

/** The same headers as fields, for an answer written with no response object to set them on (src/http/transport-errors.ts). */
export function securityHeaderFields(): Readonly<Record<string, string>> {
  const fields: Record<string, string> = {};
  for (const step of helmetSteps()) {
    if (step[0] === 'set') fields[step[1].toLowerCase()] = step[2];
    else delete fields[step[1].toLowerCase()];
  }
  return fields;
}

/** helmet run for each request, as before issue 56 item 4: only the test of the list above uses it. */
export function helmetEachRequest(): SecurityHeaders {
  const middleware = helmet(HELMET_OPTIONS);
  return (req, res) => middleware(req, res, (err?: unknown) => {
    if (err !== undefined) throw err instanceof Error ? err : new Error(String(err));
  });
}
