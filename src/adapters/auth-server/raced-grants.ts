// Requests racing with one code or refresh token (docs/smart-launch.md#what-is-checked). oidc-provider
// finds the code or token, refuses it if it is used (ending its grant: a stolen copy may be in use), and
// marks it used later: requests that all found it before any marked it were each given tokens. The store
// marks it by compare-and-set (postgres-models.ts), and the requests that lose are ended here exactly as
// oidc-provider ends a replay: the grant's end recorded as a withdrawal (revocation-records.ts), then the
// grant and every token of it ended, and the answer `invalid_grant`. Each request that lost ends it, so
// no store fault of one leaves it alive; replays in flight together may each record the end (as oidc-provider's).
import Provider, { errors } from 'oidc-provider';
import type { SmartLaunchContext } from '../../ports/smart-launch.port.js';
import { endTokens } from './grant-endings.js';
import { recordReplayEnding, type ReplayView } from './revocation-records.js';
import type { LaunchPicks } from './smart-launch.js';

/** A code or refresh token another request marked used first: a replay, whose grant ends. */
export class UsedElsewhereFirst extends errors.InvalidGrant {
  constructor(readonly grantId: string | undefined, what: string) {
    super(`${what} already used`);
  }
}

interface Consuming { consume(id: string): Promise<void> }

const consumes = (adapter: unknown): adapter is Consuming =>
  typeof adapter === 'object' && adapter !== null && typeof (adapter as Partial<Consuming>).consume === 'function';

/** oidc-provider's `adapter` factory whose consumptions, lost to another request, end the grant as a replay. */
export function endingLostRaces(
  adapter: (model: string) => unknown, smart: SmartLaunchContext, picks: LaunchPicks, onEndUnrecorded: (error: Error) => void,
): (model: string) => unknown {
  return (model) => {
    const inner = adapter(model);
    if (!consumes(inner)) return inner;
    const consume = inner.consume.bind(inner);
    inner.consume = async (id) => {
      try {
        await consume(id);
      } catch (err) {
        // The answer is the replay's invalid_grant whatever happens here; an end the store refused is logged.
        if (err instanceof UsedElsewhereFirst && err.grantId !== undefined) {
          await endAsReplay(err.grantId, smart, picks, onEndUnrecorded).catch((error: unknown) => onEndUnrecorded(error as Error));
        }
        throw err;
      }
    };
    return inner;
  };
}

async function endAsReplay(grantId: string, smart: SmartLaunchContext, picks: LaunchPicks, onEndUnrecorded: (error: Error) => void): Promise<void> {
  // A consumption is always a token request's: oidc-provider's own context of it names the request.
  const ctx = Provider.ctx as ReplayView | undefined;
  if (ctx === undefined) throw new Error('a code or refresh token consumed outside a request');
  // As oidc-provider's replay: recorded first, and ended all the same when the audit store refuses the record.
  // The pick stays (till its lifetime), as after a replay: the race's other token records name the patient by it.
  await recordReplayEnding(ctx, smart, picks).catch((error: unknown) => onEndUnrecorded(error as Error));
  await endTokens(ctx.oidc.provider, grantId);
}
