/**
 * The release rules of a lab report and of a diagnosis note (docs/contract.md#only-what-may-be-released):
 * each is withheld whole for a listed secrecy level of its own (`noteSecrecyLevels`: a report's
 * `secrecyClassification`, a diagnosis's diagnosis and template levels) or of its contact
 * (`contactSecrecyLevels`), while it is not signed (a report any of whose results is not attested,
 * or that has none; a diagnosis without `DiagnosisSignDateTime`), until `signingDelay.days` after
 * signing (the latest attestation of a report), and for a listed care unit or access zone.
 */
import type { ChemistryReportEhrExtract, DiagnosisEhrExtract } from '../records/index.js';
import { anyListed, byListedUnit, type ActiveRules } from './active-rules.js';
import type { Outcome } from './journal-release.js';
import { signatureWithholds } from './signing-delay.js';

interface Signed {
  ownLevels: readonly string[];
  contactLevels: readonly string[];
  /** Compact local time of signing; undefined while unsigned. */
  signed: string | undefined;
}

function released<T>(item: T, { ownLevels, contactLevels, signed }: Signed, rules: ActiveRules): Outcome<T> {
  const withheld = anyListed(ownLevels, rules.noteLevels) || anyListed(contactLevels, rules.contactLevels)
    || signatureWithholds(signed, rules) || byListedUnit(item, rules);
  return withheld ? { kept: undefined, withheld: 1 } : { kept: item, withheld: 0 };
}

const defined = <T>(v: T | undefined): v is T => v !== undefined;

/** A compact time comparable as text: a date reads as its midnight. */
const sortable = (compact: string): string => compact.padEnd(14, '0');

/** When every result of the report was attested, the latest attestation; undefined when one is not (or there are none). */
function attestedAt(extract: ChemistryReportEhrExtract): string | undefined {
  const times = (extract.report?.testResult ?? []).map((r) => r.attestDateTime?.value);
  if (times.length === 0 || !times.every(defined)) return undefined;
  return times.reduce((latest, t) => (sortable(t) > sortable(latest) ? t : latest));
}

export function releaseLabReport(extract: ChemistryReportEhrExtract, rules: ActiveRules): Outcome<ChemistryReportEhrExtract> {
  return released(extract, {
    ownLevels: [extract.report?.secrecyClassification].filter(defined),
    contactLevels: (extract.hCMContact?.contactSecrecyLevels ?? []).map((l) => l.secrecyLevel).filter(defined),
    signed: attestedAt(extract),
  }, rules);
}

export function releaseDiagnosis(extract: DiagnosisEhrExtract, rules: ActiveRules): Outcome<DiagnosisEhrExtract> {
  const meta = extract.diagnosisMetaData;
  return released(extract, {
    ownLevels: [...meta?.DiagnosisSecrecyLevels.secrecyLevel ?? [], ...meta?.DiagnosisTemplateSecrecyLevels.secrecyLevel ?? []],
    contactLevels: extract.hCMContact?.contactSecrecyLevels.secrecyLevel ?? [],
    signed: meta?.DiagnosisSignDateTime?.value,
  }, rules);
}
