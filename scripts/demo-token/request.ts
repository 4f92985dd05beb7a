/**
 * What `npm run demo:token` asks the demo issuer for, from its command line: the COS API's scopes
 * (plain OAuth), or SMART scopes, whose authorization names the FHIR base they are for (`aud`,
 * docs/smart-launch.md#what-is-checked) and, for `launch/patient`, whom the patient picker picks.
 */
import { parseArgs } from 'node:util';
import type { DemoSignIn } from '../../src/dev/demo-issuer/demo-token.js';

export const USAGE = `usage: npm run -s demo:token -- --person <identity number of a demo person> [options]

Prints the demo person's access token, got through the demo issuer's authorization code flow with PKCE.

  --scope "a b ..."   the scopes to ask for (default: every scope of the COS API)
  --smart             SMART scopes instead: "fhirUser launch/patient patient/*.rs" (a --scope of SMART scopes works too)
  --aud URL           the FHIR base a SMART authorization is for (default: {PUBLIC_BASE_URL}/fhir, else
                      http://127.0.0.1:{PORT or 8080}/fhir)
  --pick TEXT         whom the patient picker picks: the entry whose words hold TEXT (default: yourself)
  --issuer URL        the demo issuer (default: http://127.0.0.1:{DEMO_AUTH_PORT or 8081})
  -h, --help          this text`;

/** What `--smart` asks for: the patient's own records as FHIR, and who signed in. */
export const SMART_SCOPES = ['fhirUser', 'launch/patient', 'patient/*.rs'] as const;

/** A SMART scope (docs/smart-launch.md): launch context, fhirUser, or a FHIR resource scope (`patient/Observation.rs`, `user/*.read`). */
const isSmart = (scope: string): boolean => /^(launch(\/|$)|fhirUser$|patient\/|user\/[A-Za-z*]+\.[a-z]+$)/.test(scope);

export type DemoTokenRequest = { help: true } | { help: false; signIn: DemoSignIn } | { help: false; problem: string };

/** The sign-in `argv` asks for, with `env`'s ports and base URL as the defaults. Throws parseArgs's error for an unknown option. */
export function demoTokenRequest(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): DemoTokenRequest {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      person: { type: 'string' }, issuer: { type: 'string' }, scope: { type: 'string' }, smart: { type: 'boolean' },
      aud: { type: 'string' }, pick: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help === true) return { help: true };
  if (values.person === undefined) return { help: false, problem: 'give --person' };
  if (values.smart === true && values.scope !== undefined) return { help: false, problem: '--smart asks for its own scopes: give --smart or --scope, not both' };
  const scopes = values.smart === true ? [...SMART_SCOPES] : values.scope?.split(/[\s,]+/).filter((s) => s !== '');
  const smart = scopes?.some(isSmart) === true;
  const base = env.PUBLIC_BASE_URL?.replace(/\/+$/, '') ?? `http://127.0.0.1:${env.PORT ?? '8080'}`;
  const aud = values.aud ?? (smart ? `${base}/fhir` : undefined);
  return {
    help: false,
    signIn: {
      issuer: values.issuer ?? `http://127.0.0.1:${env.DEMO_AUTH_PORT ?? '8081'}`, person: values.person,
      ...(scopes ? { scopes } : {}), ...(aud === undefined ? {} : { aud }), ...(values.pick === undefined ? {} : { pick: values.pick }),
    },
  };
}
