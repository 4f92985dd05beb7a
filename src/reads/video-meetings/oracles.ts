/**
 * The hand-kept facts of getVideoMeetings that the tests hold the service to (test/support/read-oracles.ts
 * says which, and the step of docs/architecture.md#adding-a-read that asks for each): written here by
 * hand, never read from the operation entry or the sources they check. The typecheck names each one the
 * read's declarations call for that is not here yet.
 */
import type { ReadOracles } from '../../../test/support/read-oracles.js';
import { epochMsToCompact } from '../../domain/time/local-time.js';

export const getVideoMeetings = {
  reading: 'own reading',
  times: (data, zone) => data.map((m) => epochMsToCompact(m.startDateTimeInUnix, zone)),
  formTypes: ['Appointment'],
  // FHIR's search asks for booked, arrived and checked-in meetings only (docs/upstream-fhir.md#38-video-meetings-operation-8):
  // one already held is `fulfilled` and not listed, where the legacy document keeps it.
  keys: (a, now) => a.filter((m) => m.endDateTimeInUnix > now).map((m) => `${m.actionId} ${m.startDateTimeInUnix} ${m.meetingLink}`),
  differences: [],
} satisfies ReadOracles<'getVideoMeetings'>;
