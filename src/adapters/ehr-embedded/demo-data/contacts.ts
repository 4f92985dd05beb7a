import { contactsOf, type Contact } from './appointments.js';
import type { DemoClock } from './clock.js';
import { NS, optionalTv, tv } from './ix.js';
import type { DemoPerson } from './people.js';
import { STAFF, UNITS } from './units.js';
import { el, leaf, tag, xmlDocument, type XmlElement } from './xml.js';

/** CareContacts (README §3): the bookings as planned or finished contacts, plus calls, letters and admissions. */

function careContact(contact: Contact, index: number): XmlElement {
  return el(index === 2 ? 'cc:CareContact' : 'CareContact',
    el('ContactId', contact.contactId),
    el('ContactType', contact.type),
    el('Status', contact.status),
    tv('StartDateTime', contact.start),
    optionalTv('EndDateTime', contact.end),
    el('PerformingUnitName', UNITS[contact.unit].name),
    el('CareGiverName', STAFF[contact.staff].name),
    contact.reason === '' ? el('Reason') : leaf('Reason', contact.reason));
}

export function contactsDocument(person: DemoPerson, clock: DemoClock): string {
  const root = tag('CareContacts', { xmlns: NS.contacts, 'xmlns:cc': NS.contacts },
    contactsOf(person, clock).map(careContact));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/contacts (synthetic demo data, generated for `
    + `${clock.today}). Traps where present: ContactIds with leading zeros, contacts out of time order, `
    + 'unknown ContactType codes (BREV, DIGITALT -> other), a letter without EndDateTime, an empty '
    + 'Reason, a unit named "23", an admission across a daylight-saving change, a prefixed element.');
}
