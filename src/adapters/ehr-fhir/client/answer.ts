/**
 * What a FHIR answer means for the port (docs/upstream-fhir.md#7-faults): a 200's JSON of the
 * resource type asked for, or the failure its status stands for, as for every remote EHR
 * (src/adapters/ehr-http/status.ts). Of an OperationOutcome only each issue's severity and code may
 * be told (the server's text may hold an identity number).
 */
import { statusFailure } from '../../ehr-http/status.js';
import { fhirFault } from '../fault.js';
import { parseFhirJson } from '../fhir-json.js';
import { checked } from '../schemas/index.js';
import { OperationOutcomeSchema } from '../schemas/envelopes.js';
import type { FhirAnswer } from './fhir-exchange.js';

const JSON_MEDIA = /^application\/(fhir\+)?json\s*(;|$)/i;

const textOf = (body: Buffer | string | undefined): string | undefined => (body === undefined ? undefined : body.toString());

/** `error/not-found,warning/informational`: the issues' severity and code, nothing more. */
export function outcomeSummary(answer: FhirAnswer): string | undefined {
  const text = textOf(answer.body);
  if (text === undefined) return undefined;
  try {
    const outcome = checked(OperationOutcomeSchema, JSON.parse(text), 'OperationOutcome');
    return outcome.issue.map((i) => `${i.severity}/${i.code}`).join(',');
  } catch {
    return undefined;
  }
}

/** The JSON of a 200 answer holding a `resourceType`, or the failure the answer stands for. */
export function resourceOf(answer: FhirAnswer, resourceType: string): unknown {
  if (answer.status !== 200) throw statusFailure(answer.status, answer.headers);
  const contentType = answer.headers['content-type'];
  if (typeof contentType === 'string' && !JSON_MEDIA.test(contentType)) throw fhirFault('not FHIR JSON');
  const text = textOf(answer.body);
  if (text === undefined || text.trim() === '') throw fhirFault('empty answer');
  const json = parseFhirJson(text) as { resourceType?: unknown } | null;
  if (json === null || typeof json !== 'object' || json.resourceType !== resourceType) throw fhirFault(`not the ${resourceType} asked for`);
  return json;
}
