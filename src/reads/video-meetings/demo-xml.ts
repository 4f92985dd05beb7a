import { createHash } from 'node:crypto';
import { appointmentsOf, type Contact } from '../../dev/demo-data/appointments.js';
import type { DemoClock } from '../../dev/demo-data/clock.js';
import { bool, tv } from '../../dev/demo-data/ix.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { STAFF, UNITS } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/**
 * VideoMeetings (docs/upstream-ehr.md#3-documents): one meeting per video booking, at the booking's times. The API cuts
 * texts at 64 characters and drops meetings whose link would not fit, so every text here stays
 * within 64 characters and the demo shows every meeting whole.
 */

export const VIDEO_TEXT_MAX = 64;

export const SERVERS = {
  cloud: { discoveryURI: 'https://video.example.se/.well-known/vms', clientId: '1177-patient' },
  onPremise: { discoveryURI: 'https://vms.region.example.se/.well-known/vms', clientId: 'patient-app-onprem' },
} as const;

function fit(text: string): string {
  if (text.length > VIDEO_TEXT_MAX) throw new Error(`video meeting text over ${VIDEO_TEXT_MAX} characters: ${text}`);
  return text;
}

/** A new link per meeting; derived from the ActionId so it is stable for the day. */
export function meetingLink(actionId: string): string {
  const h = createHash('sha256').update(`meeting:${actionId}`).digest('base64url');
  return fit(`https://video.example.se/m/${h.slice(0, 4)}-${h.slice(4, 8)}`);
}

function staff(name: string, key: keyof typeof STAFF): XmlElement {
  return el(name, el('vm:Name', cdataIfMarkup(fit(STAFF[key].name))), el('vm:Type', fit(STAFF[key].type)));
}

function meeting(contact: Contact): XmlElement | undefined {
  const spec = contact.appointment;
  if (!spec?.video || contact.end === undefined) return undefined;
  const server = spec.video.onPremise ? SERVERS.onPremise : SERVERS.cloud;
  const others = spec.video.others ?? [];
  return el('vm:VideoMeeting',
    el('vm:ActionId', spec.actionId),
    tv('vm:StartDateTime', contact.start),
    tv('vm:EndDateTime', contact.end),
    el('vm:PerformingUnitName', fit(UNITS[contact.unit].name)),
    el('vm:ServiceName', fit(spec.service)),
    el('vm:MeetingLink', meetingLink(spec.actionId)),
    staff('vm:MainStaff', contact.staff),
    others.length > 0 && el('vm:OtherStaffList', others.map((key) => staff('vm:Staff', key))),
    el('vm:Server',
      el('vm:DiscoveryURI', fit(server.discoveryURI)),
      el('vm:ClientID', fit(server.clientId)),
      el('vm:OnPremise', bool(spec.video.onPremise ?? false))));
}

export function videoMeetingsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('vm:VideoMeetings', { 'xmlns:vm': ns },
    appointmentsOf(person, clock).map(meeting));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/videomeetings (synthetic demo data, generated `
    + `for ${clock.today}). Traps where present: every element prefixed vm: (no default namespace), `
    + 'meetings out of time order, a single Staff, a meeting without OtherStaffList, OnPremise '
    + 'true/false, CDATA, an escaped ampersand.');
}
