import { FHIR_OPERATIONS, isFhirOperationName } from '../operations/fhir-operations.js';
import { GRANT_OPERATIONS, isGrantOperationName } from '../operations/grant-operations.js';
import { isProxyEventName, PROXY_EVENTS } from '../operations/proxy-events.js';
import { isSubscriptionOperationName, SUBSCRIPTION_OPERATIONS } from '../operations/subscription-operations.js';
import { isOperationName, OPERATIONS } from '../operations/table.js';
import type { DisplayName } from '../operations/operation.js';
import { UNCONFIRMED_WRITE_RESULT, WRITE_OUTCOMES, type OutcomeCode } from '../writes/write-outcomes.js';

/**
 * What a patient reads in their access log, in Swedish and English (HSLF-FS 2016:40 4 kap. 9 §: the
 * extract must be in a form the patient understands): each operation's name from the operation
 * table, from the FHIR API's own operations (fhir-operations.ts) and its Subscriptions'
 * (subscription-operations.ts), or from the authorization server's grants of app access
 * (grant-operations.ts). A stored record may name an
 * operation this version does not have (written by an older or newer one); that one is shown as
 * unknown rather than not at all.
 */
const UNKNOWN_OPERATION: DisplayName = { sv: 'Okänd åtgärd', en: 'Unknown action' };

export function operationDisplayName(operation: string): DisplayName {
  if (isOperationName(operation)) return OPERATIONS[operation].displayName;
  if (isFhirOperationName(operation)) return FHIR_OPERATIONS[operation].displayName;
  if (isProxyEventName(operation)) return PROXY_EVENTS[operation].displayName;
  if (isSubscriptionOperationName(operation)) return SUBSCRIPTION_OPERATIONS.get(operation) ?? UNKNOWN_OPERATION;
  return isGrantOperationName(operation) ? GRANT_OPERATIONS[operation].displayName : UNKNOWN_OPERATION;
}

export const LOG_OUTCOMES = ['allowed', 'denied', 'failed'] as const;
export type LogOutcome = typeof LOG_OUTCOMES[number];

export const OUTCOME_NAMES: Readonly<Record<LogOutcome, DisplayName>> = {
  allowed: { sv: 'Genomförd', en: 'Done' },
  denied: { sv: 'Nekad', en: 'Refused' },
  failed: { sv: 'Misslyckades av tekniska skäl', en: 'Failed for technical reasons' },
};

/**
 * The application of an access that came through none the log can name: the service's own doing or
 * support's tool (basis `service`, `support`), else an app that named itself neither by client id nor by
 * subscription. The COS entry's one name is the Swedish, as an operator's app names are (helper-214, F1:
 * "unknown", English, was shown in the Swedish app).
 */
export const NO_APP_NAMES = {
  own: { sv: 'Tjänstens eget verktyg', en: "The service's own tool" },
  unknown: { sv: 'Okänd app', en: 'Unknown app' },
} as const satisfies Readonly<Record<string, DisplayName>>;

/** The names in both languages of a COS entry's application named by NO_APP_NAMES, by its Swedish name. */
export const noAppNamesOf = (displayName: string): DisplayName | undefined =>
  Object.values(NO_APP_NAMES).find((names) => names.sv === displayName);

/**
 * On what basis someone acted: the five of docs/contract.md#the-patients-access-log; `proxy`, someone
 * the patient shared their record with (docs/proxies.md#audited-and-shown); `support` and `service`,
 * who end a grant without either side (support staff, or time running out); and two for a person
 * whose right to act was never established. `self` stays first: the patient app names it by place.
 */
export const BASES = ['self', 'guardian', 'power-of-attorney', 'partner', 'proxy', 'client', 'support', 'service', 'refused', 'unverified'] as const;
export type LogBasis = typeof BASES[number];

export const BASIS_NAMES: Readonly<Record<LogBasis, DisplayName>> = {
  self: { sv: 'Patienten själv', en: 'The patient' },
  guardian: { sv: 'Vårdnadshavare', en: 'Guardian' },
  'power-of-attorney': { sv: 'Ombud med fullmakt', en: 'Representative with power of attorney' },
  partner: { sv: 'Närstående (partner)', en: 'Partner' },
  proxy: { sv: 'Person du delat din journal med', en: 'Someone you shared your record with' },
  client: { sv: 'Vårdgivarens system (t.ex. incheckningsterminal)', en: "The care provider's system (e.g. a check-in kiosk)" },
  support: { sv: 'Tjänstens support', en: "The service's support staff" },
  // A grant's time running out, and a subscription the service ends (a lost right, a receiver that never took it).
  service: { sv: 'Tjänsten själv (tiden gick ut eller en regel)', en: 'The service itself (its time ran out, or a rule)' },
  refused: { sv: 'Obehörig person, nekad', en: 'A person without the right to access, refused' },
  unverified: { sv: 'Person vars behörighet inte hann prövas', en: 'A person whose right to access could not be checked' },
};

/** What came of a write, by the reason the EHR gave (WRITE_OUTCOMES): the compiler holds every reason to a name. */
const WRITE_RESULT_NAMES: Readonly<Record<OutcomeCode, DisplayName>> = {
  ARRIVAL_REGISTERED: { sv: 'Ankomsten registrerades', en: 'Arrival registered' },
  ALREADY_ARRIVED: { sv: 'Ankomsten var redan registrerad', en: 'Arrival was already registered' },
  PAYMENT_REGISTERED: { sv: 'Betalningen registrerades', en: 'Payment registered' },
  ALREADY_PAID: { sv: 'Besöket var redan betalt', en: 'The visit was already paid' },
  CONTACT_NOT_FOUND: { sv: 'Ej registrerad: besöket hittades inte', en: 'Not registered: the appointment was not found' },
  CONTACT_CANCELLED: { sv: 'Ej registrerad: besöket är avbokat', en: 'Not registered: the appointment is cancelled' },
  NOT_PAYABLE: { sv: 'Ej registrerad: betalning registreras först efter ankomst', en: 'Not registered: payment is registered only after arrival' },
  OUTSIDE_ARRIVAL_WINDOW: { sv: 'Ej registrerad: utanför tiden för ankomstregistrering', en: 'Not registered: outside the time for arrival registration' },
};

/** A write's answer whose reason this version does not know (written by another EHR, or a newer version), by its result code alone. */
const RESULT_CODE_NAMES: Readonly<Record<'OK' | 'INFO' | 'ERROR', DisplayName>> = {
  OK: { sv: 'Genomförd', en: 'Done' },
  INFO: { sv: 'Redan gjord', en: 'Already done' },
  ERROR: { sv: 'Ej genomförd', en: 'Not done' },
};

/** A write sent and not confirmed (UNCONFIRMED_WRITE_RESULT): it may have been made, so never "Ej genomförd / Not done". */
const UNCONFIRMED_NAME: DisplayName = { sv: 'Okänt om den registrerades: journalsystemet bekräftade den inte', en: 'Not known whether it was registered: the EHR did not confirm it' };

/**
 * A form of result a later version wrote, read by this one (a rollback, a rolling update): not "Ej genomförd", which a
 * version before UNKNOWN called every form it did not know, and so told a patient a payment that may have been made
 * was not (hostile review helper-138, F2).
 */
const NEWER_FORM_NAME: DisplayName = { sv: 'Utfallet kan inte visas i den här versionen', en: 'This version cannot show the outcome' };

/** A write's answer as its two words: the result code and the reason (`ERROR OUTSIDE_ARRIVAL_WINDOW`), either empty where absent. */
export function writeResultParts(writeResult: string): { resultCode: string; reason: string } {
  const [resultCode = '', reason = ''] = writeResult.split(' ');
  return { resultCode, reason };
}

/** Whether this version can say what came of a write from its result (not a form a later version writes: NEWER_FORM_NAME). */
export const writeResultShown = (writeResult: string): boolean => writeResultDisplayName(writeResult) !== NEWER_FORM_NAME;

/**
 * What a write's answer (OutcomeRecord.writeResult, `ERROR OUTSIDE_ARRIVAL_WINDOW`) came to, as the patient reads it: an
 * arrival refused is not "Genomförd" because the caller was let ask (hostile review helper-133, F4).
 */
export function writeResultDisplayName(writeResult: string): DisplayName {
  if (writeResult === UNCONFIRMED_WRITE_RESULT) return UNCONFIRMED_NAME;
  const { resultCode, reason } = writeResultParts(writeResult);
  const known = Object.hasOwn(WRITE_OUTCOMES, reason) ? reason as OutcomeCode : undefined;
  if (known !== undefined && WRITE_OUTCOMES[known][0] === resultCode) return WRITE_RESULT_NAMES[known];
  return Object.hasOwn(RESULT_CODE_NAMES, resultCode) ? RESULT_CODE_NAMES[resultCode as keyof typeof RESULT_CODE_NAMES] : NEWER_FORM_NAME;
}
