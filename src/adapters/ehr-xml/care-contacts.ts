/** ContactEHRExtracts (ns urn:example:ehr:carecontact:2), a mirror of the vendor's care contacts v2 -> CareContact[]. */
import { CareContactSchema, type CareContact } from '../../domain/records/index.js';
import { mirrorReading } from './mirror-document.js';

export const careContactsReading = mirrorReading<CareContact>('ContactEHRExtracts', CareContactSchema);
