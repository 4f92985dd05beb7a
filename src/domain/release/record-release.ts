/** The release rules of care contacts, attention signals and prescriptions (journal notes: journal-release.ts). */
import type { AttentionSignalEhrExtract, ContactEhrExtract, PrescriptionExtract } from '../records/index.js';
import { anyListed, byListedUnit, type ActiveRules } from './active-rules.js';
import type { Outcome } from './journal-release.js';

const byUnit = byListedUnit;

/** A contact with a listed secrecy level or unit is withheld whole; otherwise each action with a listed level. */
export function releaseContact(extract: ContactEhrExtract, rules: ActiveRules): Outcome<ContactEhrExtract> {
  const levels = rules.contactLevels;
  const contact = extract.contact;
  if (anyListed(contact?.contactSecrecyLevels.secrecyLevel, levels) || byUnit(extract, rules)) return { kept: undefined, withheld: 1 };
  if (levels === undefined || contact === undefined) return { kept: extract, withheld: 0 };
  const actions = contact.actions.action.filter((a) => !anyListed(a.actionSecrecyLevels.secrecyLevel, levels));
  const withheld = contact.actions.action.length - actions.length;
  if (withheld === 0) return { kept: extract, withheld: 0 };
  return { kept: { ...extract, contact: { ...contact, actions: { action: actions } } }, withheld };
}

export function releaseSignal(extract: AttentionSignalEhrExtract, rules: ActiveRules): Outcome<AttentionSignalEhrExtract> {
  return byUnit(extract, rules) ? { kept: undefined, withheld: 1 } : { kept: extract, withheld: 0 };
}

export function releasePrescription(extract: PrescriptionExtract, rules: ActiveRules): Outcome<PrescriptionExtract> {
  return byUnit(extract, rules) ? { kept: undefined, withheld: 1 } : { kept: extract, withheld: 0 };
}
