/**
 * Operation 8, video meetings (docs/upstream-fhir.md#38-video-meetings-operation-8): a booked,
 * arrived or checked-in Appointment with the R5 `virtualService` extension's address. The spec's
 * bounds hold as for the XML adapter: texts over 64 characters are cut, a meeting whose link,
 * discovery URI or client id would not fit, or that has no usable action id, is left out and noted.
 */
import type { Staff, VideoMeeting } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { withinLimits } from '../../adapters/ehr-xml/video-limits.js';
import { appointmentUnit, mainPerformer, otherStaff, type Participant } from '../../adapters/ehr-fhir/appointment-parts.js';
import { roleTextOf, staffOf } from '../../adapters/ehr-fhir/care-parties.js';
import { textOf } from '../../adapters/ehr-fhir/codes.js';
import { extensionOf, partOf, PDAS_BASE } from '../../adapters/ehr-fhir/extensions.js';
import { fhirFault } from '../../adapters/ehr-fhir/fault.js';
import { instantOf } from '../../adapters/ehr-fhir/fhir-time.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import type { ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { Appointment } from '../appointments/resource-types.js';

const VIRTUAL_SERVICE = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';
const VIDEO_SERVER = `${PDAS_BASE}StructureDefinition/video-server`;
const JOINABLE: ReadonlySet<string> = new Set(['booked', 'arrived', 'checked-in']);
const DIGITS = /^\d+$/;

function meetingLink(appointment: Appointment): string | undefined {
  const address = partOf(extensionOf(appointment.extension, VIRTUAL_SERVICE), 'address');
  return address?.valueUrl ?? address?.valueUri ?? address?.valueString;
}

/** The action id: the identifier of FHIR_VIDEO_ACTION_ID_SYSTEM, else an all-digit logical id (Cerner's are). */
function actionIdOf(appointment: Appointment, ctx: MapContext): string | undefined {
  const byIdentifier = ctx.videoActionIdSystem === undefined ? undefined
    : appointment.identifier?.find((i) => i.system === ctx.videoActionIdSystem)?.value;
  const candidate = byIdentifier ?? appointment.id;
  return DIGITS.test(candidate) ? candidate : undefined;
}

function staff(participant: Participant | undefined, index: ResourceIndex): Staff | undefined {
  if (participant === undefined) return undefined;
  const facts = staffOf(participant.actor, index, roleTextOf(participant.type));
  return facts === undefined ? undefined : definedOnly({ name: facts.name, type: facts.position });
}

function server(appointment: Appointment): VideoMeeting['server'] {
  const ext = extensionOf(appointment.extension, VIDEO_SERVER);
  if (ext === undefined) return undefined;
  return definedOnly({
    discoveryURI: partOf(ext, 'discoveryURI')?.valueUri,
    clientID: partOf(ext, 'clientID')?.valueString,
    onPremise: partOf(ext, 'onPremise')?.valueBoolean,
  });
}

function meeting(appointment: Appointment, link: string, input: ReadInput, ctx: MapContext): VideoMeeting | undefined {
  const actionId = actionIdOf(appointment, ctx);
  if (actionId === undefined) {
    ctx.note('video meeting left out: no usable actionId');
    return undefined;
  }
  // app-3: every status listed here has both a start and an end.
  if (appointment.start === undefined || appointment.end === undefined) throw fhirFault('a video meeting without its start or end');
  const main = mainPerformer(appointment);
  return withinLimits({
    actionId,
    startDateTimeInUnix: instantOf(appointment.start, ctx),
    endDateTimeInUnix: instantOf(appointment.end, ctx),
    performingUnitName: appointmentUnit(appointment, input.index)?.unit.org.name,
    serviceName: textOf(appointment.serviceType?.[0]) ?? textOf(appointment.appointmentType) ?? appointment.description,
    meetingLink: link,
    mainStaff: staff(main, input.index),
    otherStaffList: otherStaff(appointment, main).map((p) => staff(p, input.index)).filter((s): s is Staff => s !== undefined),
    server: server(appointment),
  }, (reason) => ctx.note(reason));
}

export function mapVideoMeetings(input: ReadInput, ctx: MapContext): VideoMeeting[] {
  const meetings: VideoMeeting[] = [];
  for (const appointment of answerable(input, 'Appointment')) {
    const link = meetingLink(appointment);
    if (!JOINABLE.has(appointment.status) || link === undefined) continue;
    const mapped = meeting(appointment, link, input, ctx);
    if (mapped !== undefined) meetings.push(mapped);
  }
  return meetings;
}
