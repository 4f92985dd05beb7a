/**
 * src/http/fhir/written-forms.ts: a read's records are written as FHIR once and found again only for
 * the very same extracts, read, patient, zone and patient document's protection mark (BENCHMARKS.md
 * part 10); anything else is written
 * anew. A form that counts its calls stands in for a read's form.
 */
import { describe, expect, it } from 'vitest';
import type { AsFhirContext, FhirForm, FhirResource } from '../../../src/reads/as-fhir.js';
import { WrittenForms } from '../../../src/http/fhir/written-forms.js';

type Notes = Parameters<FhirForm<'getJournalNotes'>['resources']>[0];

/** A form writing one Composition per extract, its id the extract's, counting how often it writes. */
function countingForm(): { form: FhirForm<'getJournalNotes'>; calls: () => number } {
  let calls = 0;
  const form = {
    types: ['Composition'],
    app: { noSection: 'a stand-in' },
    resources: (items: Notes, ctx: AsFhirContext): FhirResource[] => {
      calls++;
      return items.flatMap((i) => i.JournalNoteEHRExtract).map((e) => ({ resourceType: 'Composition', id: e.ehr_id.extension, subject: { reference: ctx.patientReference } }));
    },
  } as FhirForm<'getJournalNotes'>;
  return { form, calls: () => calls };
}

const ctxFor = (patient: string, zone = 'Europe/Stockholm', protectedInPatientDocument = false): AsFhirContext => ({
  patientReference: `Patient/${patient}`, idOf: (_type, r) => r.extension, idRoot: '1.2.752.99999.1.1', zone, protectedInPatientDocument,
});
const extract = (id: string) => ({ ehr_id: { root: '1.2.752.99999.1.1', extension: id } });
/** A container as the time selection makes it: a new object around the same extracts. */
const container = (...extracts: object[]): Notes => [{ JournalNoteEHRExtract: extracts }] as unknown as Notes;

describe('WrittenForms', () => {
  it('writes the same extracts once, though each request holds them in a new container', () => {
    const { form, calls } = countingForm();
    const memo = new WrittenForms();
    const [a, b] = [extract('n1'), extract('n2')];
    const first = memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    const again = memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    expect(calls()).toBe(1);
    expect(again).toBe(first);
    expect(again.map((r) => r.id)).toEqual(['n1', 'n2']);
  });

  it('writes anew for another patient, zone or protection mark, another read, or other, fewer or reordered extracts', () => {
    const { form, calls } = countingForm();
    const memo = new WrittenForms();
    const [a, b] = [extract('n1'), extract('n2')];
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    const other = memo.resources('getJournalNotes', form, container(a, b), ctxFor('p2'), 'p2');
    expect(other.map((r) => r.subject)).toEqual([{ reference: 'Patient/p2' }, { reference: 'Patient/p2' }]);
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1', 'UTC'), 'p1');
    memo.resources('getDiagnoses' as 'getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    memo.resources('getJournalNotes', form, container(a), ctxFor('p1'), 'p1');
    memo.resources('getJournalNotes', form, container(b, a), ctxFor('p1'), 'p1');
    // An extract with the same content but made anew (masking, a new version of the document) is another record.
    memo.resources('getJournalNotes', form, container(a, extract('n2')), ctxFor('p1'), 'p1');
    expect(calls()).toBe(7);
  });

  // Hostile review helper-205, F2: the mark comes from the patient document, not the records written; the
  // same v2 records of a patient marked protected since are a Patient labelled R. Failed before: 1 call.
  it('writes anew once the patient document\'s protection mark changed, and finds that again', () => {
    const { form, calls } = countingForm();
    const memo = new WrittenForms();
    const [a, b] = [extract('n1'), extract('n2')];
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1', 'Europe/Stockholm', true), 'p1');
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1', 'Europe/Stockholm', true), 'p1');
    memo.resources('getJournalNotes', form, container(a, b), ctxFor('p1'), 'p1');
    expect(calls()).toBe(2);
  });

  it('writes every time when there is nothing to look the records up by', () => {
    const { form, calls } = countingForm();
    const memo = new WrittenForms();
    memo.resources('getJournalNotes', form, [] as unknown as Notes, ctxFor('p1'), 'p1');
    memo.resources('getJournalNotes', form, [] as unknown as Notes, ctxFor('p1'), 'p1');
    expect(calls()).toBe(2);
  });
});
