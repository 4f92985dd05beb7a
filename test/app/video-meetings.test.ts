/**
 * Issue 47 item 5: video meetings in the patient app (app/src/video.ts). Over FHIR a booking and its
 * video meeting are two Appointments at the same start; the app showed both as bookings, the meeting
 * with no place, no "video" and no link.
 */
import { describe, expect, it } from 'vitest';
import type { Appointment, Extension } from '../../app/src/fhir-types.js';
import { joinLink, meetingAddress, meetingTime, visitsOf } from '../../app/src/video.js';

const VIRTUAL_SERVICE = 'http://hl7.org/fhir/5.0/StructureDefinition/extension-Appointment.virtualService';
const START = '2026-11-25T13:00:00+01:00';
const END = '2026-11-25T13:30:00+01:00';
const at = (iso: string, minutes = 0) => Date.parse(iso) + minutes * 60_000;

const booking = (id: string, start: string, ...actors: string[]): Appointment => ({
  resourceType: 'Appointment', id, status: 'booked', start,
  participant: [{ actor: { reference: 'Patient/p' } }, ...actors.map((reference) => ({ actor: { reference } }))],
});
const meeting = (id: string, start: string, address: Omit<Extension, 'url'>, ...actors: string[]): Appointment => ({
  ...booking(id, start, ...actors), end: END,
  extension: [{ url: VIRTUAL_SERVICE, extension: [{ url: 'address', ...address }] }],
});

describe('issue 47 item 5: a video meeting is one visit, with its link while it is open', () => {
  it('reads the meeting\'s address from the virtual-service extension, in any of its three forms', () => {
    const forms: Omit<Extension, 'url'>[] = [{ valueUrl: 'https://v.example/m/1' }, { valueUri: 'https://v.example/m/1' }, { valueString: 'https://v.example/m/1' }];
    for (const value of forms) {
      expect(meetingAddress(meeting('m', START, value))).toBe('https://v.example/m/1');
    }
    expect(meetingAddress(booking('b', START))).toBeUndefined();
  });

  it('joins each meeting to the booking at the same instant that shares a practitioner or place with it; the rest stand alone', () => {
    const b1 = booking('b1', START, 'Practitioner/doris', 'Location/unit');
    const m1 = meeting('m1', '2026-11-25T12:00:00Z', { valueUrl: 'https://v.example/m/1' }, 'Practitioner/doris');
    const b2 = booking('b2', START, 'Practitioner/other');
    const m2 = meeting('m2', '2027-01-25T08:30:00+01:00', { valueUrl: 'https://v.example/m/2' }, 'Practitioner/fredrik');
    expect(visitsOf([b1, b2, m1, m2])).toEqual([{ booking: b1, meeting: m1 }, { booking: b2 }, { booking: m2, meeting: m2 }]);
  });

  it('offers the link from 15 minutes before the start until the end, and only an https link', () => {
    const m = meeting('m', START, { valueUrl: 'https://v.example/m/1' });
    expect([at(START, -16), at(START, -15), at(START, 10), at(END), at(END, 1)].map((now) => meetingTime(m, now)))
      .toEqual(['not-yet', 'open', 'open', 'open', 'over']);
    expect([joinLink('https://v.example/m/1'), joinLink('javascript:alert(1)'), joinLink('http://v.example/m/1'), joinLink('not a url')])
      .toEqual(['https://v.example/m/1', undefined, undefined, undefined]);
  });
});
