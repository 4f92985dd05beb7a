import { readFileSync } from 'node:fs';
import { TAGS } from './operation-docs.js';
import { securitySchemes, type OAuthDocumentation } from './security.js';

/** The package's own version, so the document says which release it describes. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const DESCRIPTION = [
  "One patient's booked appointments, care contacts, attention signals, video meetings, demographic information, "
    + 'medications and journal notes, and two writes: checking a patient in and registering a payment.',
  '',
  'Every call needs two credentials: your application\'s **subscription key** (the `Ocp-Apim-Subscription-Key` header or the '
    + '`subscription-key` query parameter) and an **OAuth 2.0 access token** (`Authorization: Bearer ...`) with the scope the '
    + 'operation names. A person\'s token reads their own data, or with the `patient` header the data of someone they act for; '
    + 'a client token (kiosk, integration) always names the patient in that header. Every access to patient data is recorded.',
  '',
  'Paths answer with and without a trailing slash (the specification writes them with one: `/patients/appointments/`). '
    + 'The vendor\'s own paths (tag *Vendor paths*) are the same operations. Times in queries are local time in the EHR\'s time zone. '
    + 'Errors are `{statusCode, message}`, except for care contacts, attention signals and video meetings: `{error, path, status, timestamp}`.',
].join('\n');

/** The parts of the document that do not come from the routes. */
export function baseDocument(basePath: string, oauth: OAuthDocumentation): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Patient Data Access Service',
      version: PACKAGE_VERSION,
      description: DESCRIPTION,
      contact: { name: 'The team that runs this service (see its README)' },
    },
    servers: [{
      url: basePath === '' ? '/' : basePath,
      description: 'This service, wherever it runs (local demo, test or production); under BASE_PATH when one is set.',
      'x-internal': false,
    }],
    tags: TAGS.map((tag) => ({ ...tag })),
    components: { securitySchemes: securitySchemes(oauth) },
  };
}
