import { carriesNoProtectionMark, noContactDetails } from '../../domain/read-policy/read-policy.js';
import { select } from '../../domain/read-policy/time-selection.js';
import { VIDEO_MEETINGS_MAX, VideoMeetingSchema } from '../../domain/records/index.js';
import { EMPTY, INTERVAL, SHAPE_2, WHO } from '../../domain/operations/docs-text.js';
import { recordsRead } from '../../domain/operations/operation.js';
import { TimeFilterQuery } from '../../domain/operations/parameters.js';
import EXAMPLE from './example.json' with { type: 'json' };

/** Operation 8: video meetings, the earliest 64 in the interval. */
export const getVideoMeetings = recordsRead({
  number: 8,
  scope: { name: 'user/VideoMeeting-read', description: 'Read video meetings' },
  displayName: { sv: 'Videomöten', en: 'Video meetings' },
  errorShape: 'error',
  path: '/patients/videomeetings/',
  vendorPaths: ['/open/api/videomeetings/'],
  query: TimeFilterQuery,
  answer: { item: VideoMeetingSchema, schemaName: 'VideoMeeting', example: EXAMPLE, maxItems: VIDEO_MEETINGS_MAX },
  policy: {
    select: (meetings, bounds) => select(meetings, (m) => m.startDateTimeInUnix, bounds).slice(0, VIDEO_MEETINGS_MAX),
    marksProtectedIdentity: carriesNoProtectionMark,
    withoutContactDetails: noContactDetails,
  },
  docs: {
    tag: { name: 'Video meetings', description: 'Booked appointments the patient can join by video.' },
    summary: 'List video meetings',
    description: `Appointments the patient can join by video, with the link to join; at most 64, the earliest first. ${INTERVAL} ${EMPTY} ${WHO} ${SHAPE_2}`,
    success: 'The video meetings, earliest first; at most 64.',
  },
});
