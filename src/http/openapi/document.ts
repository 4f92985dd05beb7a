import { readFileSync } from 'node:fs';
import { READ_NAMES } from '../../domain/operations/table.js';
import { groupsAnswering, groupsOf } from '../operation-groups.js';
import { tags } from './operation-docs.js';
import { securitySchemes, type OAuthDocumentation } from './security.js';

/** The package's own version, so the document says which release it describes. */
export const PACKAGE_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

const DESCRIPTION = [
  `One patient's data: ${groupsOf(READ_NAMES)}; the patient's access log; and two writes: checking a patient in and registering a payment.`,
  '',
  'Every call needs two credentials: your application\'s **subscription key** (the `Ocp-Apim-Subscription-Key` header or the '
    + '`subscription-key` query parameter) and an **OAuth 2.0 access token** (`Authorization: Bearer ...`) with the scope the '
    + 'operation names. A person\'s token reads their own data, or with the `patient` header the data of someone they act for; '
    + 'a client token (kiosk, integration) always names the patient in that header. Every access to patient data is recorded.',
  '',
  'Paths answer with and without a trailing slash (the specification writes them with one: `/patients/appointments/`). '
    + 'The vendor\'s own paths (tag *Vendor paths*) are the same operations. Times in queries are local time in the EHR\'s time zone. '
    + `Errors are \`{statusCode, message}\`, except for ${groupsAnswering('error')}: \`{error, path, status, timestamp}\`.`,
].join('\n');

/** Where the document points at the FHIR API, when it is served. */
const fhirParagraph = (basePath: string): string => [
  '',
  `**The same record as FHIR R4**, for any SMART-on-FHIR app, at \`${basePath}/fhir\` (and \`${basePath}/api/open/fhir\`): `
    + `[the CapabilityStatement](${basePath}/fhir/metadata) and [the SMART configuration](${basePath}/fhir/.well-known/smart-configuration) `
    + 'need no credentials; the subscription key is optional there, and the token\'s SMART scopes decide. '
    + 'The project\'s docs/fhir-api.md describes it for app developers.',
].join('\n');

/** What a person on the /docs page of a demo (`npm start` without settings) does to get an answer. */
const DEMO_STEPS = [
  '',
  '**Demo mode: three clicks.** 1. **Authorize**: the demo subscription key is already filled in; under *oauth2* every scope is '
    + 'ticked: press *Authorize* and sign in as a demo person (the sign-in page lists them). 2. Open an operation, e.g. '
    + '*List journal notes*, and press **Try it out**. 3. **Execute**. A demo token lives 15 minutes: *Logout* and *Authorize* again for a new one.',
].join('\n');

/** The parts of the document that do not come from the routes. */
export function baseDocument(basePath: string, oauth: OAuthDocumentation, fhirApi = false): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: {
      title: 'Patient Data Access Service',
      version: PACKAGE_VERSION,
      description: `${DESCRIPTION}${fhirApi ? fhirParagraph(basePath) : ''}${oauth.kind === 'demo' ? `\n${DEMO_STEPS}` : ''}`,
      contact: { name: 'The team that runs this service (see its README)' },
    },
    servers: [{
      url: basePath === '' ? '/' : basePath,
      description: 'This service, wherever it runs (local, test, staging or production); under BASE_PATH when one is set.',
      'x-internal': false,
    }],
    tags: tags().map((tag) => ({ ...tag })),
    components: { securitySchemes: securitySchemes(oauth) },
  };
}
