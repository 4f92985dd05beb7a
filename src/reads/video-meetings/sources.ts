/** Where each EHR gets getVideoMeetings from (src/reads/read-sources.ts). */
import { APPOINTMENT_FOLLOWS } from '../../adapters/ehr-fhir/client/follow-rules.js';
import { appointmentSearch } from '../../adapters/ehr-fhir/client/read-plan.js';
import { xmlDocument } from '../../adapters/ehr-xml/xml-source.js';
import type { ReadSources } from '../read-sources.js';
import { videoMeetingsAsFhir } from './as-fhir.js';
import { mapVideoMeetings } from './fhir.js';
import { videoMeetingsReading } from './xml.js';

export const getVideoMeetings = {
  xml: xmlDocument({
    path: 'videomeetings', namespace: 'urn:example:ehr:videomeeting:1', reading: videoMeetingsReading,
    patients: () => [],
    filtered: [{ path: ['VideoMeeting'], time: ['StartDateTime'] }],
  }),
  fhir: { searches: [appointmentSearch('booked,arrived,checked-in')], follows: APPOINTMENT_FOLLOWS, map: mapVideoMeetings },
  asFhir: videoMeetingsAsFhir,
  demo: () => import('./demo.js'),
} satisfies ReadSources<'getVideoMeetings'>;
