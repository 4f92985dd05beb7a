/** VideoMeeting (v2, camelCase). The bounds are the spec's; the mapper cuts or drops to honour them. */
import { Type, type Static } from 'typebox';
import { UnixMsSchema } from '../../domain/records/common.js';

export const VIDEO_TEXT_MAX = 64;
export const VIDEO_MEETINGS_MAX = 64;
export const OTHER_STAFF_MAX = 32;
export const ACTION_ID_MAX = 10_000_000_000_000_000;

const Text64 = Type.Optional(Type.String({ maxLength: VIDEO_TEXT_MAX }));

export const StaffSchema = Type.Object({ name: Text64, type: Text64 });

export const VideoMeetingSchema = Type.Object({
  actionId: Type.Integer({ minimum: 0, maximum: ACTION_ID_MAX }),
  startDateTimeInUnix: UnixMsSchema,
  endDateTimeInUnix: UnixMsSchema,
  performingUnitName: Text64,
  serviceName: Text64,
  meetingLink: Type.String({ maxLength: VIDEO_TEXT_MAX }),
  mainStaff: Type.Optional(StaffSchema),
  otherStaffList: Type.Array(StaffSchema, { maxItems: OTHER_STAFF_MAX }),
  server: Type.Optional(Type.Object({
    discoveryURI: Text64,
    clientID: Text64,
    onPremise: Type.Optional(Type.Boolean()),
  })),
});

export type Staff = Static<typeof StaffSchema>;
export type VideoMeeting = Static<typeof VideoMeetingSchema>;
