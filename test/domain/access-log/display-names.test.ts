/**
 * Issue 47 item 8: the access log names every operation the same way, by the data it reads or changes
 * ("Läkemedel" / "Medications" beside "Provsvar" / "Lab results"), in both languages: it read "Read
 * medications" beside "Lab results" before. The names come from the operation entries
 * (src/reads/<read>/operation.ts, src/domain/operations/), so the app's copy follows them.
 */
import { describe, expect, it } from 'vitest';
import { operationDisplayName } from '../../../src/domain/access-log/display-names.js';
import { FHIR_OPERATIONS } from '../../../src/domain/operations/fhir-operations.js';
import { OPERATIONS } from '../../../src/domain/operations/table.js';

const NAMED = [...Object.keys(OPERATIONS), ...Object.keys(FHIR_OPERATIONS)];
/** A name that says what was done to the data instead of naming it. */
const VERB = { sv: /^(Läsa|Registrera|Ändra|Hämta)\b/, en: /^(Read|Register|Check in|Change|Get)\b/ } as const;

describe('issue 47 item 8: the access log\'s names of the operations', () => {
  it.each(['sv', 'en'] as const)('%s: each names the data it reads or changes, with a capital and no verb', (lang) => {
    for (const operation of NAMED) {
      const name = operationDisplayName(operation)[lang];
      expect([operation, VERB[lang].test(name), name.charAt(0) === name.charAt(0).toUpperCase()]).toEqual([operation, false, true]);
    }
  });

  it('keeps the names the contract gives, and no two operations share one but the two layouts of the patient read', () => {
    expect([operationDisplayName('getLabResults'), operationDisplayName('getDiagnoses'), operationDisplayName('getPatientSummary')]).toEqual([
      { sv: 'Provsvar', en: 'Lab results' }, { sv: 'Diagnoser', en: 'Diagnoses' }, { sv: 'Sammanfattning', en: 'Patient summary' },
    ]);
    const byName = new Map<string, string[]>();
    for (const operation of NAMED) {
      const { sv, en } = operationDisplayName(operation);
      for (const name of [`sv:${sv}`, `en:${en}`]) byName.set(name, [...byName.get(name) ?? [], operation]);
    }
    expect([...byName.values()].filter((ops) => ops.length > 1)).toEqual([['getPatient', 'getPatientV2'], ['getPatient', 'getPatientV2']]);
  });
});
