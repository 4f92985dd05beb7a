/**
 * Issue 13: the answer schemas of the mirror reads (which drive the mirror reader) checked against
 * the vendor's layouts, member by member: every member of ours is in the vendor's tree with the same
 * type, and every member of the tree's own objects is in ours. The trees' data types (II, TS ...)
 * may have members we leave out (TS.expression ...): they are dropped, never invented.
 */
import { describe, expect, it } from 'vitest';
import {
  AttentionSignalSchema, CareContactSchema, DiagnosesSchema, JournalRecordSchema, LabResultSchema, PatientV2Schema,
} from '../../../src/domain/records/index.js';
import { vendorAnswerSchema, type JsonSchema } from '../../support/vendor-layouts.js';

type Schema = { type?: string; properties?: Record<string, Schema>; items?: Schema; $ref?: string; $defs?: Record<string, Schema>; enum?: unknown[] };

/** Our recursive members (`Type.Cyclic`) by id, and the pairs compared so far (a recursion is compared once). */
const ownDefs = new Map<string, Schema>();
const compared = new Set<string>();

/** Differences between `ours` and the tree's `theirs` at `path`; `defs` resolves the tree's data types. */
function compare(given: Schema, theirs: Schema, defs: Record<string, Schema>, path: string, out: string[]): void {
  for (const [id, def] of Object.entries(given.$defs ?? {})) ownDefs.set(id, def);
  const ours = given.$ref === undefined ? given : ownDefs.get(given.$ref) ?? {};
  if (given.$ref !== undefined && theirs.$ref !== undefined) {
    const pair = `${given.$ref} ${theirs.$ref}`;
    if (compared.has(pair)) return;
    compared.add(pair);
  }
  const fromType = theirs.$ref !== undefined && !theirs.$ref.startsWith('#/$defs/') ? true : theirs.$ref !== undefined;
  const resolved = fromType ? defs[theirs.$ref?.replace('#/$defs/', '') ?? ''] ?? {} : theirs;
  // `any` in the tree: the vendor's original document types it; ours says how.
  if (resolved.type === undefined) return;
  if (ours.type !== resolved.type) {
    out.push(`${path}: ${String(ours.type)} where the vendor has ${resolved.type}`);
    return;
  }
  if (ours.type === 'array') {
    compare(ours.items ?? {}, resolved.items ?? {}, defs, `${path}[]`, out);
    return;
  }
  if (ours.type !== 'object' || resolved.properties === undefined) return;
  for (const [name, member] of Object.entries(ours.properties ?? {})) {
    const theirsMember = resolved.properties[name];
    if (theirsMember === undefined) out.push(`${path}.${name}: not in the vendor's layout`);
    else compare(member, theirsMember, defs, `${path}.${name}`, out);
  }
  if (fromType) return;
  for (const name of Object.keys(resolved.properties)) {
    if (ours.properties?.[name] === undefined) out.push(`${path}.${name}: the vendor's member is missing`);
  }
}

function differences(ours: Schema, file: string, omit: readonly string[] = []): string[] {
  const tree = vendorAnswerSchema(file, { closed: true }) as Schema;
  const item = tree.items ?? {};
  const theirs: Schema = { ...item, properties: Object.fromEntries(Object.entries(item.properties ?? {}).filter(([k]) => !omit.includes(k))) };
  const out: string[] = [];
  compare(ours, theirs, (tree.$defs ?? {}), 'item', out);
  return out;
}

describe('issue 13: the answer schemas follow the vendor\'s layouts', () => {
  it('care contacts v2', () => {
    expect(differences(CareContactSchema as unknown as Schema, 'care-contacts-v2.txt')).toEqual([]);
  });

  it('attention signals', () => {
    expect(differences(AttentionSignalSchema as unknown as Schema, 'attention-signal.txt')).toEqual([]);
  });

  it('issue 23: chemistry lab results v2', () => {
    expect(differences(LabResultSchema as unknown as Schema, 'chemistry-lab-results-v2.txt')).toEqual([]);
  });

  it('issue 23: diagnosis v2, its nested diagnoses to any depth', () => {
    expect(differences(DiagnosesSchema as unknown as Schema, 'diagnosis-v2.txt')).toEqual([]);
  });

  it('patient information v2', () => {
    expect(differences(PatientV2Schema as unknown as Schema, 'patient-information-v2.txt')).toEqual([]);
  });

  it('a journal record: the value text, Unit, Range, the secrecy levels and the nested Record', () => {
    const tree = vendorAnswerSchema('journal-notes.txt', { closed: true }) as JsonSchema as Schema;
    const record = tree.$defs?.Record ?? {};
    const ours = (JournalRecordSchema as unknown as Schema).$defs?.['pdas.JournalNote.Record'] ?? {};
    const out: string[] = [];
    for (const name of ['Keyword', 'KeywordToolType', 'Value', 'JournalValueType', 'Unit', 'Range', 'KeywordSecrecyLevels']) {
      compare(ours.properties?.[name] ?? {}, record.properties?.[name] ?? {}, tree.$defs ?? {}, `Record.${name}`, out);
    }
    expect(out).toEqual([]);
    expect(Object.keys(record.properties ?? {})).toEqual(expect.arrayContaining(['Record', 'OtherValue']));
    expect(ours.properties?.Record).toBeDefined();
  });

  it('can fail: a renamed member and a wrong type are found', () => {
    const broken = JSON.parse(JSON.stringify(CareContactSchema)) as Schema;
    const extract = broken.properties?.contactEHRExtract?.items;
    const contact = extract?.properties?.contact;
    if (contact?.properties) {
      contact.properties.contactActive = { type: 'string' };
      contact.properties.contactId = { type: 'string' };
    }
    expect(differences(broken, 'care-contacts-v2.txt')).toEqual([
      'item.contactEHRExtract[].contact.contactActive: string where the vendor has boolean',
      'item.contactEHRExtract[].contact.contactId: not in the vendor\'s layout',
    ]);
  });
});
