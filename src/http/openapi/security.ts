import { apiScopes } from '../../domain/access/scopes.js';
import { OPERATIONS, type OperationName } from '../../domain/operations/table.js';

/**
 * Where the OAuth 2.0 scheme of the document points: the demo issuer's endpoints, or another issuer's
 * discovery. With another issuer the document says nothing of a demo (issue 34 item 11d).
 */
export type OAuthDocumentation =
  | { kind: 'demo'; issuer: string }
  | { kind: 'issuer'; issuer: string };

/** The demo issuer when `npm start` runs without AUTH_ISSUER, at its default address. */
export const DEFAULT_OAUTH: OAuthDocumentation = { kind: 'demo', issuer: 'http://127.0.0.1:8081' };

/** Every scope an operation needs, with what it allows. */
export function scopes(): Record<string, string> {
  return Object.fromEntries(apiScopes());
}

/** `openid`: the demo issuer signs a person in with OpenID Connect, so its sign-in asks for it beside the API's scopes. */
export const SIGN_IN_SCOPE = 'openid';

const TOKEN_RULES = 'Access tokens are signed JWTs (RS256 or another asymmetric algorithm the issuer publishes; never `none` or HS*), '
  + 'checked as RFC8725 recommends: signature against the issuer\'s JWKS, `iss`, `aud` (patient-data-access by default), `exp` and `nbf` '
  + 'with at most 60 s of clock skew; ask for a new one when it expires. Scopes may also be '
  + 'given SMART-style (`patient/Appointment.read`). A person token carries the person\'s identity number in the `patient` claim; '
  + 'a client token (client credentials, no patient claim) must name the patient in the `patient` header.';

/** The scheme of the key in the `subscription-key` query parameter, the vendor's alternative to the header. */
export const QUERY_KEY_SCHEME = 'subscriptionKeyQuery';

/** The security schemes: the subscription key in a header or the query, and OAuth 2.0. */
export function securitySchemes(oauth: OAuthDocumentation): Record<string, object> {
  const keyText = 'The subscription key of your application. Every call needs it, in this header or in the `subscription-key` '
    + 'query parameter (as the vendor\'s API management takes it); if both are sent they must be the same key.';
  const oauth2 = oauth.kind === 'demo'
    ? {
      type: 'oauth2',
      description: `OAuth 2.0 at the demo authorization server (${oauth.issuer}; a stand-in for your real one). ${TOKEN_RULES} `
        + 'Its tokens live 15 minutes. Sign in as a demo person with the authorization code flow and PKCE (S256). Client-credentials tokens (kiosks, '
        + 'integrations) come from its token endpoint with a client secret, which a browser page cannot keep: see the README.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${oauth.issuer}/auth`, tokenUrl: `${oauth.issuer}/token`,
          scopes: { [SIGN_IN_SCOPE]: 'Sign in as a person (OpenID Connect)', ...scopes() },
        },
      },
    }
    : {
      type: 'openIdConnect',
      description: `OAuth 2.0 / OpenID Connect at ${oauth.issuer}; its endpoints are in its discovery document. ${TOKEN_RULES}`,
      openIdConnectUrl: `${oauth.issuer}/.well-known/openid-configuration`,
    };
  return {
    subscriptionKey: { type: 'apiKey', in: 'header', name: 'Ocp-Apim-Subscription-Key', description: keyText },
    [QUERY_KEY_SCHEME]: {
      type: 'apiKey', in: 'query', name: 'subscription-key',
      description: `${keyText} The service never writes it to a log line, a metric or an audit record.`,
    },
    oauth2,
  };
}

/** Both credentials on every operation: either place for the key, and a token with the operation's scope. */
export function securityOf(operation: OperationName): Array<Record<string, string[]>> {
  const scope = [OPERATIONS[operation].scope.name];
  return [{ subscriptionKey: [], oauth2: scope }, { [QUERY_KEY_SCHEME]: [], oauth2: scope }];
}
