import { Type } from 'typebox';
import { IDENTITY_NUMBER_EXPECTED } from '../../domain/identity/personal-identity-number.js';
import { EXPECTED } from '../../domain/operations/parameters.js';

/**
 * Headers every patient-data route documents. The credentials (subscription key, bearer token) are
 * security schemes of the OpenAPI document and are checked before validation, so they are not
 * asked for here a second time.
 */
export const PatientHeadersSchema = Type.Object({
  patient: Type.Optional(Type.String({
    maxLength: 13,
    pattern: '^[0-9]{8}-?[0-9]{4}$',
    description: 'Personal identity or coordination number (YYYYMMDDNNNC or YYYYMMDD-NNNC) of the patient to act for. '
      + 'Leave it out to act for yourself with a person token; required with a client token (kiosk, integration).',
    [EXPECTED]: IDENTITY_NUMBER_EXPECTED,
  })),
});
