/**
 * The page's words in Swedish and English. Section titles are the access log's own names of the
 * operations (docs/contract.md#the-patients-access-log), so a patient finds the same words in the
 * app and in the log of who read what: those names come from the operation table when the app is
 * built (scripts/app-names/), never from a copy here.
 */
import { OPERATION_NAMES } from 'virtual:access-log-names';

/** What the access log calls each operation, basis and outcome: the operation table's own names, put into the bundle when it is built. */
export { BASIS_NAMES, OPERATION_NAMES, OUTCOME_NAMES } from 'virtual:access-log-names';

export type Lang = 'sv' | 'en';
export interface Words { sv: string; en: string }

/** FHIR status codes of appointments, care contacts, prescriptions, diagnoses and attention signals (a Flag's, an allergy's clinical status) in words; an unknown code is shown as it is. */
export const STATUS_NAMES: Readonly<Record<string, Words>> = {
  proposed: { sv: 'Föreslagen', en: 'Proposed' },
  pending: { sv: 'Väntar', en: 'Pending' },
  booked: { sv: 'Bokad', en: 'Booked' },
  arrived: { sv: 'Ankommen', en: 'Arrived' },
  fulfilled: { sv: 'Genomförd', en: 'Done' },
  cancelled: { sv: 'Avbokad', en: 'Cancelled' },
  noshow: { sv: 'Uteblev', en: 'Did not come' },
  'checked-in': { sv: 'Incheckad', en: 'Checked in' },
  waitlist: { sv: 'På väntelista', en: 'On the waiting list' },
  active: { sv: 'Aktiv', en: 'Active' },
  'on-hold': { sv: 'Pausad', en: 'On hold' },
  completed: { sv: 'Avslutad', en: 'Completed' },
  stopped: { sv: 'Utsatt', en: 'Stopped' },
  resolved: { sv: 'Läkt', en: 'Resolved' },
  inactive: { sv: 'Inaktiv', en: 'Inactive' },
  remission: { sv: 'I remission', en: 'In remission' },
  recurrence: { sv: 'Återkommande', en: 'Recurring' },
  planned: { sv: 'Planerad', en: 'Planned' },
  triaged: { sv: 'Bedömd', en: 'Assessed' },
  'in-progress': { sv: 'Pågår', en: 'In progress' },
  onleave: { sv: 'Permission', en: 'On leave' },
  finished: { sv: 'Avslutad', en: 'Finished' },
  'entered-in-error': { sv: 'Felregistrerad', en: 'Entered in error' },
  unknown: { sv: 'Okänd', en: 'Unknown' },
};

export const statusName = (code: string | undefined, lang: Lang): string | undefined =>
  code === undefined ? undefined : STATUS_NAMES[code]?.[lang] ?? code;

/**
 * The verification codes of an allergy and a diagnosis in words; `confirmed` has none, since it is
 * what a status says unqualified. An allergy "Inactive" and unconfirmed was never shown to be one.
 */
export const VERIFICATION_NAMES: Readonly<Record<string, Words>> = {
  unconfirmed: { sv: 'Ej bekräftad', en: 'Unconfirmed' },
  provisional: { sv: 'Preliminär', en: 'Provisional' },
  differential: { sv: 'Differentialdiagnos', en: 'Differential' },
  refuted: { sv: 'Motbevisad', en: 'Refuted' },
  'entered-in-error': { sv: 'Felregistrerad', en: 'Entered in error' },
};

/** A verification status in words: its first code's, an unknown code as it is, else its text as written; nothing when confirmed. */
export function verificationName(v: { coding?: { code?: string }[]; text?: string } | undefined, lang: Lang): string | undefined {
  const code = v?.coding?.find((c) => c.code !== undefined)?.code;
  if (code === 'confirmed') return undefined;
  return code === undefined ? v?.text : VERIFICATION_NAMES[code]?.[lang] ?? code;
}

/** An operation's name as a section title: the access log names each read by the data it reads ("Läkemedel"). */
export function titleOf(operation: string): Words {
  return OPERATION_NAMES[operation] ?? { sv: operation, en: operation };
}

/** The sections that are no read's: each read's is titled by its folder's description (`APP_READS`, views.ts). */
export const TITLES = {
  accessLog: titleOf('getAccessLog'),
  summary: titleOf('getPatientSummary'),
} as const satisfies Record<string, Words>;

export const LABELS = {
  intro: {
    sv: 'En exempelapp som läser dina journaluppgifter via tjänstens FHIR-API. Logga in, välj vems uppgifter du vill se och godkänn.',
    en: 'A sample app that reads your health record through the service\'s FHIR API. Sign in, choose whose record to see, and allow.',
  },
  signIn: { sv: 'Logga in', en: 'Sign in' },
  switchPerson: { sv: 'Byt person', en: 'Switch person' },
  signOut: { sv: 'Logga ut', en: 'Sign out' },
  otherLanguage: { sv: 'English', en: 'Svenska' },
  skip: { sv: 'Hoppa till innehållet', en: 'Skip to content' },
  loading: { sv: 'Hämtar uppgifter …', en: 'Reading the record …' },
  loaded: { sv: 'Uppgifterna är hämtade.', en: 'The record has been read.' },
  signInFailed: { sv: 'Inloggningen misslyckades', en: 'Signing in failed' },
  signInCancelled: {
    sv: 'Du avbröt inloggningen. Appen fick inte tillgång till några uppgifter.',
    en: 'You cancelled the sign-in. The app was given access to nothing.',
  },
  signedOut: { sv: 'Du är utloggad, även från inloggningstjänsten.', en: 'You are signed out, from the sign-in service too.' },
  signedOutHere: { sv: 'Du är utloggad från appen.', en: 'You are signed out of the app.' },
  noPatient: { sv: 'Inloggningen valde ingen patient: logga in igen.', en: 'The sign-in picked no patient: sign in again.' },
  nothing: { sv: 'Inga uppgifter.', en: 'Nothing recorded.' },
  failed: { sv: 'Kunde inte läsas', en: 'Could not be read' },
  failedLater: { sv: 'Tjänsten kan inte svara just nu. Vänta en stund och försök igen.', en: 'The service cannot answer right now. Wait a while and try again.' },
  failedBusy: { sv: 'För många förfrågningar just nu. Vänta en stund och försök igen.', en: 'Too many requests right now. Wait a while and try again.' },
  failedSignIn: { sv: 'Inloggningen har gått ut. Logga in igen.', en: 'The sign-in has ended. Sign in again.' },
  failedRefused: { sv: 'Du har inte tillgång till den här delen.', en: 'You do not have access to this part.' },
  notAvailable: { sv: 'Sammanfattningen finns inte tillgänglig ännu.', en: 'The summary is not available yet.' },
  born: { sv: 'Född', en: 'Born' },
  when: { sv: 'När', en: 'When' },
  status: { sv: 'Status', en: 'Status' },
  noted: { sv: 'Antecknat', en: 'Noted' },
  who: { sv: 'Vem', en: 'Who' },
  where: { sv: 'Var', en: 'Where' },
  application: { sv: 'Applikation', en: 'Application' },
  what: { sv: 'Vad', en: 'What' },
  outcome: { sv: 'Utfall', en: 'Outcome' },
  value: { sv: 'Värde', en: 'Value' },
  range: { sv: 'Referensintervall', en: 'Reference range' },
  author: { sv: 'Skriven av', en: 'Written by' },
  unsigned: { sv: 'Ej signerad', en: 'Not signed' },
  /** A note with nothing in it to show (every part of it withdrawn by the EHR): said, so nothing reads as lost. */
  noteEmpty: { sv: 'Anteckningen har inget innehåll att visa.', en: 'The note has no content to show.' },
  dosage: { sv: 'Dosering', en: 'Dosage' },
  reason: { sv: 'Orsak', en: 'Reason' },
  prescribed: { sv: 'Förskriven', en: 'Prescribed' },
  recorded: { sv: 'Registrerad', en: 'Recorded' },
  code: { sv: 'Kod', en: 'Code' },
  noneKnown: { sv: 'Inga kända.', en: 'None known.' },
  withheld: { sv: 'Visas inte i sammanfattningen.', en: 'Withheld: not shown in this summary.' },
  chartOf: { sv: 'Diagram över', en: 'Plot of' },
  oneValue: { sv: 'värde', en: 'value' },
  values: { sv: 'värden', en: 'values' },
  latest: { sv: 'senast', en: 'latest' },
  tableScroll: { sv: 'Tabell, kan rullas i sidled', en: 'Table, scrolls sideways' },
  table: { sv: 'Tabell', en: 'Table' },
  videoMeeting: { sv: 'Videomöte', en: 'Video meeting' },
  online: { sv: 'Via nätet, med video', en: 'Online, by video' },
  join: { sv: 'Anslut till videomötet', en: 'Join the video meeting' },
  joinLater: { sv: 'Länken för att ansluta visas här {minutes} minuter före start.', en: 'The link to join appears here {minutes} minutes before the start.' },
  joinNoLink: { sv: 'Mötet har ingen säker länk: fråga mottagningen hur du ansluter.', en: 'The meeting has no secure link: ask the clinic how to join.' },
  notShownOnline: {
    sv: 'Vissa uppgifter visas inte här: regionen visar dem inte på nätet. Vill du veta mer eller ta del av dem, kontakta mottagningen där du fick vården.',
    en: 'Some items are not shown here: the region does not show them online. To learn more or to read them, contact the clinic where you were cared for.',
  },
} as const satisfies Record<string, Words>;

/** The laboratory's marks of a value (interpretation.ts), and the word before one it calls critical. */
export const MARK_WORDS = {
  high: { sv: 'Högt', en: 'High' },
  low: { sv: 'Lågt', en: 'Low' },
  abnormal: { sv: 'Avvikande', en: 'Abnormal' },
  critically: { sv: 'Kritiskt', en: 'Critically' },
} as const satisfies Record<string, Words>;

/** The language to start in: a choice made on this page before, else Swedish for a Swedish browser, else English. */
export function initialLang(stored: string | null, browser: string): Lang {
  if (stored === 'sv' || stored === 'en') return stored;
  return browser.toLowerCase().startsWith('sv') ? 'sv' : 'en';
}
