/**
 * The body of a FHIR create (a Consent, a Subscription): `application/fhir+json`, read as the COS
 * API reads JSON (src/http/json-body.ts: UTF-8 alone, a `__proto__` or `constructor.prototype` key
 * refused, never merged; a member named twice refused, naming it), anything that is not such JSON a
 * 400 saying what to send. Registered once for the FHIR routes; each route sets its own body limit.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../api-error.js';
import { INVALID_JSON_MESSAGES } from '../error-mapping.js';
import { jsonBodyParser } from '../json-body.js';
import { RepeatedMemberError } from '../repeated-members.js';

export function acceptFhirJson(app: FastifyInstance, bodyLimit: number): void {
  const parse = jsonBodyParser(app);
  app.addContentTypeParser('application/fhir+json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    parse(request, body as Buffer, (err, value) => {
      if (err === null) done(null, value);
      else if (err instanceof RepeatedMemberError || err instanceof ApiError) done(err, undefined);
      else done(new ApiError(400, INVALID_JSON_MESSAGES.fhir), undefined);
    });
  });
}
