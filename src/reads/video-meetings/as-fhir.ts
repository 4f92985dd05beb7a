/**
 * getVideoMeetings as FHIR (docs/upstream-fhir.md#38-video-meetings-operation-8 read backwards):
 * each meeting a booked Appointment of the patient (as-fhir-appointment.ts) with R5's virtual
 * service (cross-version extension) holding the meeting link, and the project's `video-server`
 * extension. The action id is the identifier of FHIR_VIDEO_ACTION_ID_SYSTEM and the logical id.
 */
import { PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import type { VideoMeeting } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm } from '../as-fhir.js';
import { appointmentOf } from '../as-fhir-appointment.js';
import { logicalIdOf } from '../as-fhir-datatypes.js';
import { WrittenResources } from '../as-fhir-parties.js';

const VIRTUAL_SERVICE = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';
const VIDEO_SERVER = `${PDAS_BASE}StructureDefinition/video-server`;

/** `video-server` with the members the record has; none without one (ext-1 forbids an empty extension). */
function videoServer(server: VideoMeeting['server']): object[] {
  if (server === undefined) return [];
  const parts = [
    ...(server.discoveryURI === undefined ? [] : [{ url: 'discoveryURI', valueUri: server.discoveryURI }]),
    ...(server.clientID === undefined ? [] : [{ url: 'clientID', valueString: server.clientID }]),
    ...(server.onPremise === undefined ? [] : [{ url: 'onPremise', valueBoolean: server.onPremise }]),
  ];
  return parts.length === 0 ? [] : [{ url: VIDEO_SERVER, extension: parts }];
}

/**
 * A meeting's Appointment. `booked` is the least-saying of the statuses a meeting is read from
 * (booked, arrived, checked-in). The action id is the logical id the inbound falls back on (the
 * context may answer a digest for it) and, where the system is set, the identifier it reads first.
 */
function appointment(m: VideoMeeting, out: WrittenResources, ctx: AsFhirContext) {
  const actionId = String(m.actionId);
  const system = ctx.videoActionIdSystem;
  return appointmentOf({
    id: logicalIdOf('Appointment', actionId, ctx),
    status: 'booked',
    identifier: system === undefined ? undefined : [{ system, value: actionId }],
    extension: [{ url: VIRTUAL_SERVICE, extension: [{ url: 'address', valueUrl: m.meetingLink }] }, ...videoServer(m.server)],
    startMs: m.startDateTimeInUnix,
    endMs: m.endDateTimeInUnix,
    serviceType: m.serviceName,
    unit: m.performingUnitName === undefined ? undefined : { name: m.performingUnitName },
    main: m.mainStaff === undefined ? undefined : { name: m.mainStaff.name, role: m.mainStaff.type },
    others: m.otherStaffList.map((s) => ({ name: s.name, role: s.type })),
  }, out, ctx);
}

export const videoMeetingsAsFhir = {
  types: ['Appointment'],
  app: { noSection: 'The appointments\' section: a meeting is an Appointment their search finds, shown with its booking.' },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    for (const m of items) out.add(appointment(m, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getVideoMeetings'>;
