// The synchroniser token every form of the authorization server carries (a hidden field `csrf`), so
// that only a page this server rendered can post it: not another site, nor a script on this one (the
// patient app at /app/ is same-origin) that never read the page. SameSite=Lax cookies keep the first
// out, not the second.
//
// A token is an HMAC of what the form is bound to (its interaction's uid, or the signed-in session)
// under a key derived from the cookie keys, not a random value kept with the interaction: oidc-provider
// keeps only its own fields of an interaction, every instance holds the same cookie keys already (its
// signed cookies need them), so any instance checks a token another rendered with no write on every
// page and no state to expire. A token of one interaction or session is worth nothing for another; one
// made with an older cookie key is taken while that key is still in the list (a key rotation does not
// break a page open at the time).
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The hidden field's name: a script that posts a form's hidden fields back as they are posts it too (docs/sign-in.md). */
export const CSRF_FIELD = 'csrf';

/**
 * What a token is bound to: a form to the interaction it belongs to, or to the session (uid and
 * person) of the connected-apps page; a notice of that page (`revoked`) to the session whose post it
 * reports, to the page as the post left it (`state`) and to its time (`at`), so that a link cannot make
 * the page say what its person never did, nor the address say it once the page has changed since or
 * long after. Each kind is its own
 * text, so one kind's token is worth nothing as another's.
 */
export type FormBinding = { interaction: string } | SessionBinding | NoticeBinding;
/** The connected-apps page's forms: its session's uid and person. */
export interface SessionBinding { session: string; accountId: string }
/** A notice of that page: the session's, the page as the post left it, and when (seconds since the epoch). */
export interface NoticeBinding extends SessionBinding { notice: string; state: string; at: string }

const bound = (binding: FormBinding): string => {
  if ('interaction' in binding) return ['interaction', binding.interaction].join('\0');
  if ('notice' in binding) return ['notice', binding.notice, binding.session, binding.accountId, binding.state, binding.at].join('\0');
  return ['session', binding.session, binding.accountId].join('\0');
};

export class FormTokens {
  private readonly keys: readonly Buffer[];

  /** `cookieKeys`: the server's cookie keys, the first the one tokens are made with. */
  constructor(cookieKeys: readonly string[]) {
    if (cookieKeys.length === 0) throw new Error('form tokens need at least one cookie key');
    // A key of its own for these tokens: an HMAC of the cookie key, never the cookie key itself.
    this.keys = cookieKeys.map((key) => createHmac('sha256', key).update('pdas form tokens v1').digest());
  }

  /** The token of a form bound to `binding`, for its hidden field. */
  issue(binding: FormBinding): string {
    return this.mac(this.keys[0] as Buffer, binding);
  }

  /** Whether `posted` is the token of `binding`, compared in constant time with each key's. */
  valid(posted: string | null, binding: FormBinding): boolean {
    if (posted === null) return false;
    const given = Buffer.from(posted);
    let matched = false;
    for (const key of this.keys) {
      const expected = Buffer.from(this.mac(key, binding));
      // Every token has the same length (the length of a posted one says nothing worth hiding).
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
    return matched;
  }

  private mac(key: Buffer, binding: FormBinding): string {
    return createHmac('sha256', key).update(bound(binding)).digest('base64url');
  }
}
