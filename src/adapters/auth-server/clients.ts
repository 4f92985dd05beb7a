// The clients the authorization server knows, and what each may be given beyond its oidc-provider
// metadata: the demo's fixed ones (src/dev/demo-issuer/demo-clients.ts) and, in production, those a
// region registers in a file. The provider's configuration asks only this, never a client's name.
import { apiScopes } from '../../domain/access/scopes.js';

/** Every scope the COS API understands, from the operation table; the resource server offers exactly these. */
export const API_SCOPES: readonly string[] = [...apiScopes().keys()];

export interface AuthClient {
  /** oidc-provider's client metadata (RFC 7591 names). */
  metadata: Record<string, unknown> & { client_id: string };
  /** The COS API scopes it may be granted. */
  apiScopes: readonly string[];
  /**
   * A SMART app: it may ask for SMART person scopes and the launch's OpenID scopes (`fhirUser`,
   * `launch/patient`, `offline_access`), a refresh may leave out `client_id`, and `offline_access`
   * is consented to without `prompt=consent`.
   */
  smart: boolean;
  /** The scopes it may ask for, when registered (SMART wildcards included); every one it may be given otherwise. */
  allows?: (scope: string) => boolean;
  /** Redirect URIs it may use beyond the registered ones (RFC 8252 loopback, the patient app's page). */
  redirectAllowed?: (uri: string) => boolean;
  /** The browser origin allowed to call the token endpoint for it (CORS), when it is a browser app. */
  corsOrigin?: () => string | undefined;
  /**
   * The region's own app (the patient app): its person's tokens may list and revoke the person's
   * connected apps (connected-apps.ts). A third-party app may not see or end another's access.
   */
  managesGrants?: boolean;
  /**
   * The URL prefixes its notifications may go to (`notification_endpoints`, docs/notifications.md),
   * beside SUBSCRIPTION_ENDPOINTS; none when unset. Checked by src/domain/notifications/endpoint-rules.ts.
   */
  notificationEndpoints?: readonly string[];
}

export class AuthClients {
  private readonly byId: ReadonlyMap<string, AuthClient>;

  constructor(clients: readonly AuthClient[]) {
    this.byId = new Map(clients.map((client) => [client.metadata.client_id, client]));
  }

  get(clientId: string): AuthClient | undefined {
    return this.byId.get(clientId);
  }

  metadata(): Array<Record<string, unknown>> {
    return [...this.byId.values()].map((client) => client.metadata);
  }

  /** How its clients authenticate at the token endpoint (`none`, `client_secret_basic`, ...), each method once. */
  authMethods(): string[] {
    return [...new Set([...this.byId.values()].map((client) => String(client.metadata.token_endpoint_auth_method ?? 'client_secret_basic')))];
  }

  /** Whether the client may ask for `scope` at all (its registration); what it is then given is the provider's rule. */
  allows(clientId: string, scope: string): boolean {
    const allows = this.byId.get(clientId)?.allows;
    return allows === undefined || allows(scope);
  }

  /** Whether a browser app at `origin` may manage a person's grants (its CORS origin, see `managesGrants`). */
  managesGrantsFrom(origin: string): boolean {
    return [...this.byId.values()].some((client) => client.managesGrants === true && client.corsOrigin?.() === origin);
  }

  isSmart(clientId: string | undefined): boolean {
    return clientId !== undefined && this.byId.get(clientId)?.smart === true;
  }
}
