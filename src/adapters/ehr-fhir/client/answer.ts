/**
 * What a FHIR answer means for the port (docs/upstream-fhir.md#7-faults): a 200's JSON of the
 * resource type asked for, or the failure its status stands for, as for every remote EHR
 * (src/adapters/ehr-http/status.ts). Of an OperationOutcome only each issue's severity and code may
 * be told (the server's text may hold an identity number).
 */
import { statusFailure } from '../../ehr-http/status.js';
import { fhirFault } from '../fault.js';
import { parseFhirJsonInSlices } from '../fhir-json.js';
import { checked } from '../schemas/index.js';
import { OperationOutcomeSchema } from '../schemas/envelopes.js';
import type { FhirAnswer } from './fhir-exchange.js';

const JSON_MEDIA = /^application\/(fhir\+)?json\s*(;|$)/i;

const textOf = (body: Buffer | string | undefined): string | undefined => (body === undefined ? undefined : body.toString());

/** Whether the body is JSON whitespace alone (a body's first byte that is not settles it). */
function isBlank(body: Buffer | string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = typeof body === 'string' ? body.charCodeAt(i) : body[i];
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

const SEVERITIES: ReadonlySet<string> = new Set(['fatal', 'error', 'warning', 'information']);
/** FHIR R4's IssueType codes (http://hl7.org/fhir/R4/valueset-issue-type.html): a code the server sends is logged only when it is one. */
const ISSUE_CODES: ReadonlySet<string> = new Set([
  'invalid', 'structure', 'required', 'value', 'invariant', 'security', 'login', 'unknown', 'expired', 'forbidden', 'suppressed',
  'processing', 'not-supported', 'duplicate', 'multiple-matches', 'not-found', 'deleted', 'too-long', 'code-invalid', 'extension',
  'too-costly', 'business-rule', 'conflict', 'transient', 'lock-error', 'no-store', 'exception', 'timeout', 'incomplete', 'throttled',
  'informational',
]);
const told = (value: string, known: ReadonlySet<string>): string => (known.has(value) ? value : 'unknown');

/** `error/not-found,warning/informational`: the first issues' severity and code, nothing more, each one FHIR defines or `unknown`. */
export function outcomeSummary(answer: FhirAnswer): string | undefined {
  const text = textOf(answer.body);
  if (text === undefined) return undefined;
  try {
    const outcome = checked(OperationOutcomeSchema, JSON.parse(text), 'OperationOutcome');
    return outcome.issue.slice(0, 8).map((i) => `${told(i.severity, SEVERITIES)}/${told(i.code, ISSUE_CODES)}`).join(',');
  } catch {
    return undefined;
  }
}

/**
 * The JSON of a 200 answer holding a `resourceType`, or the failure the answer stands for. Parsed in
 * slices (a page may be FHIR_MAX_PAGE_BYTES), and given up once `signal`, the call's deadline, aborts.
 */
export async function resourceOf(answer: FhirAnswer, resourceType: string, signal?: AbortSignal): Promise<unknown> {
  if (answer.status !== 200) throw statusFailure(answer.status, answer.headers);
  const contentType = answer.headers['content-type'];
  if (typeof contentType === 'string' && !JSON_MEDIA.test(contentType)) throw fhirFault('not FHIR JSON');
  if (answer.body === undefined || isBlank(answer.body)) throw fhirFault('empty answer');
  // The bytes as they came: they are decoded piece by piece (fhir-json.ts).
  const json = await parseFhirJsonInSlices(answer.body, { signal }) as { resourceType?: unknown } | null;
  if (json === null || typeof json !== 'object' || json.resourceType !== resourceType) throw fhirFault(`not the ${resourceType} asked for`);
  return json;
}
