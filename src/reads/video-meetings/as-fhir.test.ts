/**
 * getVideoMeetings as FHIR: the demo people's meetings come back exactly (describeFhirForm), and what
 * the demo does not hold: a region without FHIR_VIDEO_ACTION_ID_SYSTEM, an instant with milliseconds
 * in winter and summer, text with inner spaces, a meeting without staff, unit or server.
 */
import { describe, expect, it } from 'vitest';
import type { VideoMeeting } from '../../domain/records/index.js';
import { DEMO_PEOPLE } from '../../dev/demo-data/people.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import { videoMeetingsAsFhir } from './as-fhir.js';

describeFhirForm('getVideoMeetings', []);

describe('getVideoMeetings as FHIR, beyond the demo', () => {
  const person = DEMO_PEOPLE[0];
  if (person === undefined) throw new Error('no demo people');

  const meeting = (more: Partial<VideoMeeting>): VideoMeeting => ({
    actionId: 4711,
    startDateTimeInUnix: Date.parse('2026-12-14T08:30:00Z'),
    endDateTimeInUnix: Date.parse('2026-12-14T09:00:00Z'),
    meetingLink: 'https://video.example.se/m/abc',
    otherStaffList: [],
    ...more,
  });
  /** Written as FHIR and sent through JSON as the API sends it; valid R4. */
  const written = (meetings: VideoMeeting[], ctx: AsFhirContext = asFhirContext(person)): FhirResource[] => {
    const resources = JSON.parse(JSON.stringify(videoMeetingsAsFhir.resources(meetings, ctx))) as FhirResource[];
    expect(structureProblems(resources)).toEqual([]);
    return resources;
  };
  const appointment = (resources: FhirResource[]) => resources.find((r) => r.resourceType === 'Appointment');

  it('keeps the action id as the logical id where the region names no action id system', () => {
    const { videoActionIdSystem: _, ...withoutSystem } = asFhirContext(person);
    const m = meeting({});
    const resources = written([m], withoutSystem);
    expect(appointment(resources)).toMatchObject({ id: '4711' });
    expect(appointment(resources)?.identifier).toBeUndefined();
    expect(readBack('getVideoMeetings', person, resources)).toEqual([m]);
  });

  it('writes start and end with their milliseconds and the offset of their own instant', () => {
    const m = meeting({ startDateTimeInUnix: Date.parse('2026-07-01T08:00:00.250Z'), endDateTimeInUnix: Date.parse('2026-12-01T08:00:00Z') });
    const resources = written([m]);
    expect(appointment(resources)).toMatchObject({ start: '2026-07-01T10:00:00.250+02:00', end: '2026-12-01T09:00:00+01:00' });
    expect(readBack('getVideoMeetings', person, resources)).toEqual([m]);
  });

  it('copies text exactly and names the staff with their roles in this meeting, the main one first', () => {
    const m = meeting({
      performingUnitName: 'Mottagningen  Ö', serviceName: ' Samtal\npsykolog ',
      mainStaff: { name: 'Päivi  P', type: 'Psykolog' }, otherStaffList: [{ name: 'Ali Tolk', type: 'Tolk (arabiska)' }, { name: 'Utan Roll' }],
      server: { clientID: 'app' },
    });
    expect(readBack('getVideoMeetings', person, written([m]))).toEqual([m]);
  });

  it('writes a meeting without staff, unit or server as the patient\'s Appointment alone', () => {
    const m = meeting({});
    const resources = written([m]);
    expect(resources.map((r) => r.resourceType)).toEqual(['Appointment']);
    expect(readBack('getVideoMeetings', person, resources)).toEqual([m]);
  });
});
