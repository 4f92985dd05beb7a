import { VENDOR_TAG } from '../openapi/operation-docs.js';

/**
 * CONTRACT §4: the EHR vendor's own paths answer too, as aliases of the spec's: the same route
 * configuration (operation, scope, audit name, error shape) and handler at a second URL. Only the
 * documentation differs: an operationId of its own and the vendor tag.
 */
const VENDOR_PATHS: Readonly<Record<string, string>> = {
  '/patients/appointments/': '/api/open/appointments/',
  '/patients/paymentnotice/': '/api/open/paymentnotice/',
  '/patients/patient/': '/api/open/patient/',
  '/patients/contacts/': '/api/open/contacts/',
  '/patients/attentionsignals/': '/api/open/attentionsignals/',
  '/patients/journalnotes/': '/api/open/journalnotes/',
  '/patients/videomeetings/': '/open/api/videomeetings/',
  '/patients/medications/': '/open/api/medications/',
};

interface DocumentedSchema { operationId: string; tags: string[] }

/** The spec path with its schema, then the vendor path with the same schema under the vendor tag. */
export function atSpecAndVendorPath<S extends DocumentedSchema>(specPath: string, schema: S): Array<{ url: string; schema: S }> {
  const vendorPath = VENDOR_PATHS[specPath];
  if (vendorPath === undefined) throw new Error(`no vendor path for ${specPath}`);
  return [
    { url: specPath, schema },
    { url: vendorPath, schema: { ...schema, operationId: `${schema.operationId}AtVendorPath`, tags: [VENDOR_TAG] } },
  ];
}
