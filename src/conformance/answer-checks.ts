/**
 * What the kit asks of one read's answer, whatever EHR gave it: it is valid against the service's
 * own schema of the read (src/domain/records, through the operation table), within its item
 * limit, names no person number but the test patient's, and every time in it converts (a 14-digit
 * local time or an 8-digit date that exists, a display time, an epoch number). Faults name a member
 * path, never a value.
 */
import { Value } from 'typebox/value';
import { OPERATIONS, type ReadName } from '../domain/operations/table.js';
import { isCompactDate, isCompactDateTime } from '../domain/time/local-time.js';

const PERSON_NUMBER_ROOTS: ReadonlySet<string> = new Set(['1.2.752.129.2.1.3.1', '1.2.752.129.2.1.3.3']);
const DISPLAY_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d$/;
const MAX_FAULTS = 3;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Each member of the answer, with its path, depth first. */
function* members(value: Json, path: string): Generator<[string, Json]> {
  yield [path, value];
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) yield* members(child, `${path}/${key}`);
}

const isObject = (v: Json): v is { [key: string]: Json } => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The person number a member names: an `{root, extension}` of a person-number root, or a `{Number, Type: {Id}}`. */
function personNumberOf(v: Json): string | undefined {
  if (!isObject(v)) return undefined;
  if (typeof v.root === 'string' && PERSON_NUMBER_ROOTS.has(v.root) && typeof v.extension === 'string') return v.extension;
  const type = v.Type;
  if (typeof v.Number === 'string' && type !== undefined && isObject(type) && typeof type.Id === 'string' && PERSON_NUMBER_ROOTS.has(type.Id)) return v.Number;
  return undefined;
}

function timeFault(path: string, v: Json): boolean {
  const key = path.slice(path.lastIndexOf('/') + 1);
  // A time member is `{value: digits}`: 8 or 14 digits that name a real day and time.
  if (isObject(v) && Object.keys(v).length === 1 && typeof v.value === 'string' && /^\d+$/.test(v.value)) {
    return !(isCompactDate(v.value) || isCompactDateTime(v.value));
  }
  if (key === 'StartTime' && typeof v === 'string') return !DISPLAY_TIME.test(v);
  if (key.endsWith('InUnix')) return typeof v !== 'number' || !Number.isSafeInteger(v);
  return false;
}

export interface AnswerFaults {
  schema: string[];
  otherPeople: string[];
  times: string[];
}

export function answerFaults(read: ReadName, items: readonly unknown[], patient: string): AnswerFaults {
  const answer = OPERATIONS[read].answer;
  const schema = items.flatMap((item, i) => [...Value.Errors(answer.item, item)].slice(0, MAX_FAULTS)
    .map((e) => `item ${i}${(e as { instancePath?: string }).instancePath ?? ''}: ${(e as { message?: string }).message ?? 'invalid'}`));
  if (answer.maxItems !== undefined && items.length > answer.maxItems) schema.push(`${items.length} items, at most ${answer.maxItems} allowed`);
  const otherPeople: string[] = [];
  const times: string[] = [];
  for (const [path, v] of members(items as Json, '')) {
    const number = personNumberOf(v);
    // Numbers connected to the patient (an older coordination number) are the same person's.
    if (number !== undefined && number !== patient && !/Connected(Active|Inactive)Numbers/i.test(path)) otherPeople.push(path);
    if (timeFault(path, v)) times.push(path);
  }
  return { schema: schema.slice(0, MAX_FAULTS), otherPeople: otherPeople.slice(0, MAX_FAULTS), times: times.slice(0, MAX_FAULTS) };
}
