/**
 * A refusal of the Sharing or Connected apps tab in the app's own words, in Swedish and English, by
 * its status. Never the answer's `message`: the service writes it in English for whoever builds an
 * app (docs/proxies.md), and the person reading the page is not that.
 */
import { LABELS, type Words } from './i18n.js';

/** What failed, with the status of the answer that said so (none when no answer came). */
export class RefusedError extends Error {
  override name = 'RefusedError';
  constructor(readonly status: number | undefined) { super(status === undefined ? 'no answer' : `answered ${status}`); }
}

/** The status of a refusal, or none when the call got no answer (a network failure, a bad page state). */
export const statusOf = (err: unknown): number | undefined => (err instanceof RefusedError ? err.status : undefined);

const SHARING_REFUSALS: Readonly<Record<number, Words>> = {
  400: {
    sv: 'Uppgifterna godtogs inte. Kontrollera personnumret (det ska vara en annan vuxens), vad som delas och datumen och försök igen.',
    en: "The details were not accepted. Check the personal identity number (it must be another adult's), what is shared and the dates, and try again.",
  },
  403: {
    sv: 'Det här kan du inte göra här. Kontakta din vårdgivare om du behöver hjälp.',
    en: 'You cannot do this here. Contact your care provider if you need help.',
  },
  404: { sv: 'Delningen finns inte längre. Listan nedan är uppdaterad.', en: 'The sharing no longer exists. The list below is up to date.' },
  409: {
    sv: 'Det gick inte: delningen finns redan eller har redan avslutats, eller så har du redan så många delningar som går, öppna eller givna det senaste dygnet. Se listan nedan.',
    en: 'That could not be done: the sharing already exists or has already ended, or you already have as many shares as allowed, open or given in the last day. See the list below.',
  },
};

const APP_REFUSALS: Readonly<Record<number, Words>> = {
  403: LABELS.failedRefused,
  404: { sv: 'Appens åtkomst har redan upphört. Listan är uppdaterad.', en: "The app's access has already ended. The list is up to date." },
};

/** Said for any status either tab may get: the sign-in, the rate limit, and everything else as "try again later". */
function common(status: number | undefined): Words {
  return status === 401 ? LABELS.failedSignIn : status === 429 ? LABELS.failedBusy : LABELS.failedLater;
}

/** A refusal on the Sharing tab, in the app's words. */
export const sharingRefusal = (err: unknown): Words => {
  const status = statusOf(err);
  return (status === undefined ? undefined : SHARING_REFUSALS[status]) ?? common(status);
};

/** A refusal on the Connected apps tab, in the app's words. */
export const appsRefusal = (err: unknown): Words => {
  const status = statusOf(err);
  return (status === undefined ? undefined : APP_REFUSALS[status]) ?? common(status);
};
