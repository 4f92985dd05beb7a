/**
 * What a patient reads in their access log, in Swedish and English (HSLF-FS 2016:40 4 kap. 9 §: the
 * extract must be in a form the patient understands). Keyed by the operation ids the trail stores.
 */
export interface DisplayName {
  sv: string;
  en: string;
}

const OPERATIONS: Readonly<Record<string, DisplayName>> = {
  registerPayment: { sv: 'Registrera betalning av besök', en: 'Register payment of a visit' },
  changeAppointment: { sv: 'Registrera ankomst till besök', en: 'Check in for an appointment' },
  getAppointments: { sv: 'Läsa bokade besök', en: 'Read booked appointments' },
  getPatient: { sv: 'Läsa personuppgifter', en: 'Read personal details' },
  getPatientV2: { sv: 'Läsa personuppgifter', en: 'Read personal details' },
  getContacts: { sv: 'Läsa vårdkontakter', en: 'Read care contacts' },
  getAttentionSignals: { sv: 'Läsa uppmärksamhetssignaler', en: 'Read attention signals' },
  getVideoMeetings: { sv: 'Läsa videomöten', en: 'Read video meetings' },
  getMedications: { sv: 'Läsa läkemedel', en: 'Read medications' },
  getJournalNotes: { sv: 'Läsa journalanteckningar', en: 'Read journal notes' },
  getAccessLog: { sv: 'Läsa loggen över vem som tagit del av uppgifterna', en: 'Read the log of who accessed the data' },
};

const UNKNOWN_OPERATION: DisplayName = { sv: 'Okänd åtgärd', en: 'Unknown action' };

export function operationDisplayName(operation: string): DisplayName {
  return Object.hasOwn(OPERATIONS, operation) ? OPERATIONS[operation] ?? UNKNOWN_OPERATION : UNKNOWN_OPERATION;
}

export const OUTCOMES = ['allowed', 'denied', 'failed'] as const;
export type LogOutcome = typeof OUTCOMES[number];

export const OUTCOME_NAMES: Readonly<Record<LogOutcome, DisplayName>> = {
  allowed: { sv: 'Genomförd', en: 'Done' },
  denied: { sv: 'Nekad', en: 'Refused' },
  failed: { sv: 'Misslyckades av tekniska skäl', en: 'Failed for technical reasons' },
};

/** On what basis someone acted: CONTRACT §6's five, and two for a person whose right to act was never established. */
export const BASES = ['self', 'guardian', 'power-of-attorney', 'partner', 'client', 'refused', 'unverified'] as const;
export type LogBasis = typeof BASES[number];

export const BASIS_NAMES: Readonly<Record<LogBasis, DisplayName>> = {
  self: { sv: 'Patienten själv', en: 'The patient' },
  guardian: { sv: 'Vårdnadshavare', en: 'Guardian' },
  'power-of-attorney': { sv: 'Ombud med fullmakt', en: 'Representative with power of attorney' },
  partner: { sv: 'Närstående (partner)', en: 'Partner' },
  client: { sv: 'Vårdgivarens system (t.ex. incheckningsterminal)', en: "The care provider's system (e.g. a check-in kiosk)" },
  refused: { sv: 'Obehörig person, nekad', en: 'A person without the right to access, refused' },
  unverified: { sv: 'Person vars behörighet inte hann prövas', en: 'A person whose right to access could not be checked' },
};
