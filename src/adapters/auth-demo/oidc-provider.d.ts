// oidc-provider ships no type declarations (and @types/oidc-provider lags its majors); this
// declares only the part of its public API the demo authorization server uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export type Configuration = Record<string, unknown>;

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: 'server_error', listener: (ctx: unknown, error: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => Error;
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
    interface Prompt {
      name: string;
      checks: { add(check: Check, index?: number): void };
    }
    function base(): Prompt[] & { get(name: string): Prompt | undefined };
  }

  export default Provider;
}
