/** CareContacts (ns urn:example:ehr:carecontact:1) -> CareContact[] (v2 camelCase). */
import type { CareContact } from '../../domain/records/index.js';
import { documentType, reading } from './document.js';
import { STR } from './leaves.js';
import { as, many, obj, req } from './shape.js';
import { codeList, UNIX_MS } from './v2-leaves.js';

const CONTACT_TYPES = new Map([
  ['BESOK', 'visit'], ['TELEFON', 'phone'], ['VIDEO', 'video'], ['INSKRIVNING', 'admission'],
]);

const CARE_CONTACT = obj({
  ContactId: req(STR, 'contactId'),
  ContactType: req(codeList(CONTACT_TYPES, 'other'), 'contactType'),
  Status: req(STR, 'status'),
  StartDateTime: req(UNIX_MS, 'startDateTimeInUnix'),
  EndDateTime: as('endDateTimeInUnix', UNIX_MS),
  PerformingUnitName: req(STR, 'performingUnitName'),
  CareGiverName: req(STR, 'careGiverName'),
  Reason: as('reason', STR),
});

const DOCUMENT = documentType('CareContacts', obj({ CareContact: many(CARE_CONTACT) }));

export const careContactsReading = reading(DOCUMENT, (root) => root.CareContact as CareContact[]);
