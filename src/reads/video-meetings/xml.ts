/** VideoMeetings (ns urn:example:ehr:videomeeting:1) -> VideoMeeting[] (v2 camelCase). */
import type { VideoMeeting } from '../../domain/records/index.js';
import { documentType, reading } from '../../adapters/ehr-xml/document.js';
import { BOOL, STR } from '../../adapters/ehr-xml/leaves.js';
import { as, flatWrap, many, obj, req } from '../../adapters/ehr-xml/shape.js';
import { UNIX_MS } from '../../adapters/ehr-xml/v2-leaves.js';
import { withinLimits, type RawMeeting } from '../../adapters/ehr-xml/video-limits.js';

const STAFF = obj({ Name: as('name', STR), Type: as('type', STR) });

const VIDEO_MEETING = obj({
  // Kept as text until its exactness is known: a JS number rounds above 2^53 - 1.
  ActionId: req(STR, 'actionId'),
  StartDateTime: req(UNIX_MS, 'startDateTimeInUnix'),
  EndDateTime: req(UNIX_MS, 'endDateTimeInUnix'),
  PerformingUnitName: as('performingUnitName', STR),
  ServiceName: as('serviceName', STR),
  MeetingLink: req(STR, 'meetingLink'),
  MainStaff: as('mainStaff', STAFF),
  OtherStaffList: flatWrap('Staff', STAFF, 'otherStaffList'),
  Server: as('server', obj({
    DiscoveryURI: as('discoveryURI', STR),
    ClientID: as('clientID', STR),
    OnPremise: as('onPremise', BOOL),
  })),
});

const DOCUMENT = documentType('VideoMeetings', obj({ VideoMeeting: many(VIDEO_MEETING) }));

/** Meetings in document order; at most 64 of them are answered, chosen by selectInRange. */
export const videoMeetingsReading = reading(DOCUMENT, (root, ctx): VideoMeeting[] => {
  const meetings: VideoMeeting[] = [];
  for (const raw of root.VideoMeeting as RawMeeting[]) {
    const meeting = withinLimits(raw, ctx.onDropped);
    if (meeting) meetings.push(meeting);
  }
  return meetings;
});
