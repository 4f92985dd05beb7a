/**
 * The spec's bounds on a video meeting (docs/contract.md#reads): display texts are cut to 64 characters, but a
 * link, discovery URI or client id that does not fit would be a broken one, so that meeting is left
 * out and reported instead. An ActionId a JS number cannot hold exactly is left out the same way.
 */
import {
  ACTION_ID_MAX, OTHER_STAFF_MAX, UNIX_MS_MAX, UNIX_MS_MIN, VIDEO_TEXT_MAX, type Staff, type VideoMeeting,
} from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { malformed } from './malformed-document-error.js';

/** The meeting as the walk maps it: ActionId still text, texts not yet cut. */
export interface RawMeeting extends Omit<VideoMeeting, 'actionId'> {
  actionId: string;
}

const INTEGER = /^-?\d+$/;

// Length as JSON Schema counts it: code points, so a cut never splits a surrogate pair.
const tooLong = (s: string | undefined): boolean =>
  s !== undefined && s.length > VIDEO_TEXT_MAX && [...s].length > VIDEO_TEXT_MAX;

const cut = (s: string | undefined): string | undefined =>
  (tooLong(s) ? [...(s as string)].slice(0, VIDEO_TEXT_MAX).join('') : s);

const cutStaff = (staff: Staff): Staff => definedOnly({ name: cut(staff.name), type: cut(staff.type) });

/** Why the meeting cannot be answered within the schema, or undefined when it can. */
function dropReason(m: RawMeeting, actionId: number): string | undefined {
  if (!Number.isSafeInteger(actionId)) return 'actionId beyond the exact integer range';
  if (actionId < 0 || actionId > ACTION_ID_MAX) return 'actionId out of range';
  for (const ms of [m.startDateTimeInUnix, m.endDateTimeInUnix]) {
    if (ms < UNIX_MS_MIN || ms > UNIX_MS_MAX) return 'time out of range';
  }
  if (tooLong(m.meetingLink)) return 'meetingLink longer than 64 characters';
  if (tooLong(m.server?.discoveryURI)) return 'discoveryURI longer than 64 characters';
  if (tooLong(m.server?.clientID)) return 'clientID longer than 64 characters';
  return undefined;
}

export function withinLimits(m: RawMeeting, onDropped: (reason: string) => void): VideoMeeting | undefined {
  if (!INTEGER.test(m.actionId)) throw malformed('bad integer ActionId');
  const actionId = Number(m.actionId);
  const reason = dropReason(m, actionId);
  if (reason !== undefined) {
    onDropped(`video meeting left out: ${reason}`);
    return undefined;
  }
  return definedOnly<VideoMeeting>({
    actionId,
    startDateTimeInUnix: m.startDateTimeInUnix,
    endDateTimeInUnix: m.endDateTimeInUnix,
    performingUnitName: cut(m.performingUnitName),
    serviceName: cut(m.serviceName),
    meetingLink: m.meetingLink,
    mainStaff: m.mainStaff === undefined ? undefined : cutStaff(m.mainStaff),
    otherStaffList: m.otherStaffList.slice(0, OTHER_STAFF_MAX).map(cutStaff),
    server: m.server,
  });
}
