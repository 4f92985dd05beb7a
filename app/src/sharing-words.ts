/**
 * The Sharing tab's words in Swedish and English. What may be shared is named by the access log's
 * names of the reads (CATEGORY_NAMES, from the operation table at build time), as the record's
 * sections are: "Lab results" in the invitation is the section the other person will see.
 */
import { CATEGORY_NAMES } from 'virtual:access-log-names';
import { when } from './format.js';
import type { Lang, Words } from './i18n.js';
import type { Grant, GrantParty, GrantStatus } from './grant-types.js';

export { CATEGORY_NAMES };

/** `*`: every read, now and later (the contract's every category). */
export const EVERYTHING = '*';

export const SHARING_LABELS = {
  tab: { sv: 'Delning', en: 'Sharing' },
  intro: {
    sv: 'Här väljer du vem som får läsa delar av din journal, och ser vem som har delat sin journal med dig. Allt som görs här syns i din logg.',
    en: 'Here you choose who may read parts of your record, and see who has shared their record with you. Everything done here shows in your log.',
  },
  given: { sv: 'Vem som får läsa min journal', en: 'Who can read my record' },
  givenNone: { sv: 'Du delar inte din journal med någon.', en: 'You do not share your record with anyone.' },
  invite: { sv: 'Bjud in någon', en: 'Invite someone' },
  inviteIntro: {
    sv: 'Personen måste vara 18 år eller äldre. Hen får läsa det du väljer, efter att hen har tackat ja, tills du eller hen avslutar delningen.',
    en: 'The person must be 18 or over. They may read what you choose once they accept, until you or they end the sharing.',
  },
  grantee: { sv: 'Personnummer', en: 'Identity number' },
  granteeHint: { sv: 'Tolv siffror, till exempel 19121212-1212.', en: 'Twelve digits, for example 19121212-1212.' },
  what: { sv: 'Vad får personen läsa?', en: 'What may they read?' },
  everything: { sv: 'Allt, nu och framöver', en: 'Everything, now and later' },
  endDate: { sv: 'Sista dag (valfritt)', en: 'Last day (optional)' },
  endDateHint: { sv: 'Lämna tomt för att dela tills någon av er avslutar.', en: 'Leave empty to share until either of you ends it.' },
  purpose: { sv: 'Varför (valfritt, högst 200 tecken)', en: 'Why (optional, at most 200 characters)' },
  send: { sv: 'Skicka inbjudan', en: 'Send the invitation' },
  sent: { sv: 'Inbjudan är skickad. Personen får läsa när hen har tackat ja.', en: 'The invitation was sent. They may read once they accept.' },
  chooseSomething: { sv: 'Välj minst en del av journalen att dela.', en: 'Choose at least one part of the record to share.' },
  toMe: { sv: 'Inbjudningar till mig', en: 'Invitations to me' },
  toMeNone: { sv: 'Inga inbjudningar just nu.', en: 'No invitations now.' },
  received: { sv: 'Journaler som delas med mig', en: 'Records shared with me' },
  receivedNone: { sv: 'Ingen delar sin journal med dig.', en: 'Nobody shares their record with you.' },
  receivedHow: {
    sv: 'Välj personen under Byt person för att läsa det hen delar.',
    en: 'Pick the person under Switch person to read what they share.',
  },
  ended: { sv: 'Avslutade delningar', en: 'Ended sharing' },
  accept: { sv: 'Tacka ja', en: 'Accept' },
  decline: { sv: 'Tacka nej', en: 'Decline' },
  accepted: { sv: 'Du har tackat ja.', en: 'You accepted.' },
  declined: { sv: 'Du har tackat nej.', en: 'You declined.' },
  revoked: { sv: 'Delningen är avslutad. Den gäller inte längre, från och med nu.', en: 'The sharing has ended. It no longer holds, from now on.' },
  yesEnd: { sv: 'Ja, avsluta', en: 'Yes, end it' },
  cancel: { sv: 'Avbryt', en: 'Cancel' },
  failed: { sv: 'Det gick inte', en: 'That did not work' },
  listFailed: { sv: 'Delningarna kunde inte hämtas', en: 'The sharing could not be read' },
  reads: { sv: 'Får läsa', en: 'May read' },
  period: { sv: 'Period', en: 'Period' },
  status: { sv: 'Status', en: 'Status' },
  why: { sv: 'Varför', en: 'Why' },
  untilRevoked: { sv: 'tills någon avslutar', en: 'until ended' },
  from: { sv: 'från', en: 'from' },
} as const satisfies Record<string, Words>;

const STATUS: Readonly<Record<GrantStatus, Words>> = {
  pending: { sv: 'Väntar på svar', en: 'Waiting for an answer' },
  active: { sv: 'Gäller', en: 'In force' },
  declined: { sv: 'Tackade nej', en: 'Declined' },
  revoked: { sv: 'Avslutad', en: 'Ended' },
  expired: { sv: 'Tiden har gått ut', en: 'Its time ran out' },
  lapsed: { sv: 'Besvarades inte i tid', en: 'Not answered in time' },
};

const ENDED_BY: Readonly<Record<NonNullable<Grant['endedBy']>, Words>> = {
  grantor: { sv: 'av den som delade', en: 'by the one who shared' },
  grantee: { sv: 'av den som fick läsa', en: 'by the one who could read' },
  support: { sv: 'av regionens support', en: "by the region's support" },
};

export function statusWords(grant: Grant, lang: Lang): string {
  const by = grant.endedBy === undefined ? '' : ` ${ENDED_BY[grant.endedBy][lang]}`;
  return `${STATUS[grant.status]?.[lang] ?? grant.status}${by}`;
}

/** A person as the page names them: their name once known, else the number typed. */
export const partyName = (p: GrantParty): string => p.name ?? p.identityNumber;

/** What a grant opens, in the record's words: "Lab results, Medications", or everything. */
export function categoriesWords(categories: readonly string[], lang: Lang): string {
  if (categories.includes(EVERYTHING)) return SHARING_LABELS.everything[lang];
  return categories.map((c) => CATEGORY_NAMES[c]?.[lang] ?? c).join(', ');
}

/** A grant's 14-digit local time (`20261126093000`) as the date a person reads. */
export function grantDate(value: string | undefined, lang: Lang): string | undefined {
  const m = value === undefined ? null : /^(\d{4})(\d{2})(\d{2})/.exec(value);
  return m === null ? value : when(`${m[1]}-${m[2]}-${m[3]}`, lang);
}

export function periodWords(grant: Grant, lang: Lang): string {
  const from = grantDate(grant.validFrom, lang) ?? '';
  const to = grantDate(grant.validTo, lang);
  return to === undefined ? `${SHARING_LABELS.from[lang]} ${from}, ${SHARING_LABELS.untilRevoked[lang]}` : `${from} – ${to}`;
}

/** The button that ends one grant, naming the person, so a list of them reads apart. */
export function endLabel(grant: Grant, lang: Lang): string {
  const other = partyName(grant.role === 'grantor' ? grant.grantee : grant.grantor);
  if (grant.role === 'grantor') return grant.status === 'pending' ? (lang === 'sv' ? `Återkalla inbjudan till ${other}` : `Withdraw the invitation to ${other}`) : (lang === 'sv' ? `Sluta dela med ${other}` : `Stop sharing with ${other}`);
  return lang === 'sv' ? `Avsluta läsningen av ${other}s journal` : `Stop reading ${other}'s record`;
}

export function confirmQuestion(grant: Grant, lang: Lang): string {
  const other = partyName(grant.role === 'grantor' ? grant.grantee : grant.grantor);
  return grant.role === 'grantor'
    ? (lang === 'sv' ? `Ska ${other} inte längre få läsa din journal? Det gäller direkt.` : `Should ${other} no longer read your record? It holds at once.`)
    : (lang === 'sv' ? `Vill du sluta läsa ${other}s journal? Hen måste bjuda in dig igen för att du ska kunna läsa den.` : `Stop reading ${other}'s record? They would have to invite you again.`);
}

/** Said when a person one reads for has ended it, or the service refuses what they shared. */
export function noLongerShares(name: string | undefined, lang: Lang): string {
  if (name === undefined) return lang === 'sv' ? 'Personen delar inte längre sin journal med dig.' : 'This person no longer shares their record with you.';
  return lang === 'sv' ? `${name} delar inte längre sin journal med dig.` : `${name} no longer shares their record with you.`;
}

/** Said above a grantor's record: what they share, and that the rest is not shared. */
export function sharesOnly(named: string | undefined, categories: readonly string[], lang: Lang): string {
  const name = named ?? (lang === 'sv' ? 'Personen' : 'This person');
  if (categories.includes(EVERYTHING)) return lang === 'sv' ? `${name} delar hela sin journal med dig.` : `${name} shares their whole record with you.`;
  const what = categoriesWords(categories, lang);
  return lang === 'sv' ? `${name} delar bara detta med dig: ${what}. Resten av journalen har hen inte delat.` : `${name} shares only this with you: ${what}. The rest of the record is not shared with you.`;
}
