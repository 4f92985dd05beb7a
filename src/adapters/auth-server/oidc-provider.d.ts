// oidc-provider ships no type declarations (and @types/oidc-provider lags its majors); this
// declares only the part of its public API the demo authorization server uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type Configuration = Record<string, unknown>;

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    /** The request being handled (oidc-provider's AsyncLocalStorage): its `ctx`, undefined outside one. */
    static readonly ctx: unknown;
    readonly issuer: string;
    /** Koa's: trust X-Forwarded-Proto and -Host from a gateway. */
    proxy: boolean;
    urlFor(name: string, options?: Record<string, unknown>): string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
    readonly Grant: {
      new (init: { accountId?: string | undefined; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
      /** The store's own rows, without the model's checks: a grant's liveness and its deletion. */
      readonly adapter: { find(id: string): Promise<object | undefined>; destroy(id: string): Promise<void> };
    };
    readonly RefreshToken: {
      /** `consumed`: when it was spent (a rotated one), absent while it is unspent. */
      find(value: string, options?: { ignoreExpiration?: boolean }): Promise<{ clientId: string; grantId: string; accountId?: string; scope?: string; consumed?: unknown } | undefined>;
      revokeByGrantId(grantId: string): Promise<void>;
    };
    readonly AccessToken: { revokeByGrantId(grantId: string): Promise<void> };
    readonly AuthorizationCode: {
      find(value: string, options?: { ignoreExpiration?: boolean }): Promise<{ clientId: string; grantId?: string; accountId?: string; scope?: string; codeChallenge?: string; consumed?: unknown } | undefined>;
      revokeByGrantId(grantId: string): Promise<void>;
    };
    readonly Session: { get(ctx: unknown): Promise<{ uid: string; accountId?: string }> };
    /**
     * An interaction as stored: the prompt it was begun for, once finished its result, the result it follows
     * (`lastSubmission`), and the session it was begun in when someone was signed in (`cookie`: that session's id).
     */
    readonly Interaction: {
      find(uid: string): Promise<{
        prompt?: { name: string }; result?: Record<string, unknown>; lastSubmission?: Record<string, unknown>; session?: { uid?: string; cookie?: string };
      } | undefined>;
    };
    /** The name a cookie of oidc-provider's has (`session`, `interaction`, `resume`) under this configuration. */
    cookieName(type: string): string;
    /** The Koa context of a request (the provider is a Koa application). */
    createContext(req: IncomingMessage, res: ServerResponse): unknown;
    readonly Client: {
      prototype: {
        redirectUriAllowed(this: RegisteredClient, value: string): boolean;
        /** Whether its ID tokens carry the session's `sid` (oidc-provider: only for back-channel logout). */
        includeSid(this: RegisteredClient): boolean;
        postLogoutRedirectUriAllowed(this: RegisteredClient, value: string): boolean;
      };
      find(id: string): Promise<{ clientId: string; clientName?: string; 'client_name#sv'?: string; 'client_name#en'?: string } | undefined>;
    };
    use(middleware: (ctx: never, next: () => Promise<void>) => Promise<void>): void;
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
    emit(event: string, ...args: unknown[]): boolean;
  }

  /** A client as the provider holds it: its id and the redirect URIs it registered. */
  export interface RegisteredClient {
    clientId: string;
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    /** What the interactions before this one resolved (login, a SMART launch's picked patient). */
    lastSubmission?: Record<string, unknown>;
  }

  export interface Grant {
    readonly jti: string;
    readonly accountId?: string;
    readonly clientId: string;
    /** Granted resource scopes by resource indicator, space-separated. */
    readonly resources?: Record<string, string>;
    readonly openid?: { scope?: string };
    /** Issued at, seconds since the epoch. */
    readonly iat?: number;
    destroy(): Promise<void>;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  /** One of oidc-provider's OAuth errors: its status and code, its description, and a detail for the log alone. */
  export interface OidcError extends Error { status: number; error: string; error_description?: string; error_detail?: string }

  export const errors: {
    InvalidTarget: new (description?: string) => OidcError;
    InvalidScope: new (description: string, scope: string) => OidcError;
    InvalidRequest: new (description: string) => OidcError;
    /** Its description is always "grant request is invalid"; `detail` is for the log (error_detail). */
    InvalidGrant: new (detail: string) => OidcError;
  };

  export namespace interactionPolicy {
    class Check {
      constructor(
        reason: string,
        description: string,
        error: string,
        check: (ctx: never) => boolean | Promise<boolean>,
      );
    }
    class Prompt {
      constructor(options: { name: string; requestable: boolean }, ...checks: Check[]);
      name: string;
      checks: { add(check: Check, index?: number): void };
    }
    function base(): Prompt[] & { get(name: string): Prompt | undefined; add(prompt: Prompt, index?: number): void };
  }

  export default Provider;
}
