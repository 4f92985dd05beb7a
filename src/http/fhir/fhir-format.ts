/**
 * Formats (docs/fhir-api.md#formats): JSON only, as `application/fhir+json` (the default) or
 * `application/json`; `_format=json` too. An `Accept` that admits no JSON, or another `_format`, is 406.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';
import { FHIR_JSON } from './operation-outcome.js';

const PLAIN_JSON = 'application/json; charset=utf-8';
const FORMATS: ReadonlySet<string> = new Set(['json', 'application/json', 'application/fhir+json']);
const JSON_RANGES: ReadonlySet<string> = new Set(['*/*', 'application/*', 'application/json', 'application/fhir+json']);

interface MediaRange { type: string; q: number }

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { type, q: q === undefined ? 1 : Number(q.slice(2)) };
  }).filter((r) => r.type !== '' && r.q > 0);
}

/** The content type of the answer; 406 when the caller takes no JSON. */
export function answerType(request: FastifyRequest, format: string | undefined): string {
  if (format !== undefined && !FORMATS.has(format)) {
    throw new ApiError(406, 'This API answers JSON only: use _format=json (or application/fhir+json), or leave _format out.');
  }
  const accept = request.headers.accept;
  if (accept === undefined || accept.trim() === '') return FHIR_JSON;
  const ranges = mediaRanges(accept);
  if (!ranges.some((r) => JSON_RANGES.has(r.type))) {
    throw new ApiError(406, 'This API answers JSON only: send Accept: application/fhir+json (or application/json).');
  }
  const wantsPlain = ranges.some((r) => r.type === 'application/json') && !ranges.some((r) => r.type === 'application/fhir+json');
  return wantsPlain && format !== 'application/fhir+json' ? PLAIN_JSON : FHIR_JSON;
}
