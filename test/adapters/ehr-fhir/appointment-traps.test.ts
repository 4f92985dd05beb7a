/** The traps of the FHIR contract for bookings (operation 3) and video meetings (operation 8). */
import { describe, expect, it } from 'vitest';
import { mapAppointments } from '../../../src/reads/appointments/fhir.js';
import { mapVideoMeetings } from '../../../src/reads/video-meetings/fhir.js';
import { EhrError } from '../../../src/domain/ehr-error.js';
import { changed, mapContext, readInput, type RawResource } from './support/demo-bundle.js';

const bookings = (resources?: RawResource[], without?: string[], notes: string[] = []) =>
  mapAppointments(readInput(['Appointment'], { resources, without }), mapContext(notes))[0];
const meetings = (resources?: RawResource[], notes: string[] = [], over = {}) =>
  mapVideoMeetings(readInput(['Appointment'], { resources }), mapContext(notes, over));
const ids = (result: ReturnType<typeof bookings>) => [...(result?.Booking ?? []).map((b) => b.ContactId), ...(result?.RegisteredBooking ?? []).map((b) => b.BookingId)];

describe('FHIR bookings: what is listed', () => {
  it.each(['cancelled', 'noshow', 'entered-in-error'])('never lists a %s appointment, whatever the server filtered', (status) => {
    expect(ids(bookings(changed('Appointment/appt-0001', (r) => { r.status = status; })))).not.toContain('appt-0001');
  });

  it('lists proposed, pending and waitlisted appointments as registered bookings, the others as bookings', () => {
    const result = bookings(changed('Appointment/appt-0001', (r) => { r.status = 'waitlist'; }));
    expect(result?.RegisteredBooking.map((b) => b.BookingId)).toEqual(['appt-0001', 'appt-0003']);
    expect(result?.Booking.map((b) => b.ContactId)).toEqual(['appt-0002']);
  });

  it('leaves out, and notes, a proposed appointment without a start', () => {
    const notes: string[] = [];
    const result = bookings(changed('Appointment/appt-0003', (r) => { r.status = 'proposed'; delete r.start; delete r.end; }), undefined, notes);
    expect(ids(result)).toEqual(['appt-0001', 'appt-0002']);
    expect(notes).toEqual(['an appointment without a start was left out']);
  });
});

describe('FHIR bookings: what is not at hand', () => {
  it('leaves out the unit when its Location was not included, and keeps the rest', () => {
    const booking = bookings(undefined, ['Location/loc-vc-tolvstad'])?.Booking[0];
    expect(booking?.PerformingUnit).toBeUndefined();
    expect(booking?.CareGiver).toBe('Doris Doktorsson');
  });

  it('leaves out the care giver when the Practitioner was not included', () => {
    expect(bookings(undefined, ['Practitioner/prac-doris'])?.Booking[0]?.CareGiver).toBeUndefined();
  });

  it('takes the unit from a Location before a PractitionerRole, and the address of the Location', () => {
    const resources = changed('Appointment/appt-0001', (r) => {
      (r.participant as unknown[]).unshift({ actor: { reference: 'PractitionerRole/role-fredrik' }, status: 'accepted' });
    });
    expect(bookings(resources)?.Booking[0]?.PerformingUnit).toMatchObject({ Id: 'org-vc-tolvstad', Address: { CareOfAddress: 'c/o Hälsans hus' } });
  });

  it('has no payment details without the patient-fee extension', () => {
    expect(bookings(changed('Appointment/appt-0001', (r) => { delete r.extension; }))?.Booking[0]).not.toHaveProperty('PaymentDetails');
  });
});

describe('FHIR bookings: the patient', () => {
  it('leaves out an address whose period has ended', () => {
    const result = mapAppointments(readInput(['Appointment']), mapContext([], { nowMs: Date.parse('2026-11-23T10:00:00Z') }))[0];
    expect(result?.Patient?.Addresses.map((a) => a.City)).toEqual(['Stockholm']);
  });

  it('names each current person number with its kind, a coordination number too, and never an old one', () => {
    const resources = changed('Patient/pat-tolvan', (r) => {
      (r.identifier as unknown[]).push(
        { system: 'urn:oid:1.2.752.129.2.1.3.3', value: '191212721219' },
        { use: 'old', system: 'http://electronichealth.se/identifier/personnummer', value: '191212121220' },
      );
    });
    expect(bookings(resources)?.Patient?.PersonNumbers).toEqual([
      { Number: '191212121212', Type: { Id: '1.2.752.129.2.1.3.1', Name: 'Personnummer' } },
      { Number: '191212721219', Type: { Id: '1.2.752.129.2.1.3.3', Name: 'Samordningsnummer' } },
    ]);
  });
});

describe('FHIR bookings: what is not FHIR', () => {
  it.each([
    ['a status outside the required binding', (r: RawResource) => { r.status = 'foo'; }],
    ['a participant type that is not a list of concepts', (r: RawResource) => { (r.participant as { type?: unknown }[])[1]!.type = 'PPRF'; }],
    ['a start that is no time', (r: RawResource) => { r.start = '14 december 2026'; }],
    ['an id FHIR does not allow', (r: RawResource) => { r.id = 'appt_0001'; }],
  ])('refuses %s as a bad response', (_, change) => {
    expect(() => bookings(changed('Appointment/appt-0001', change))).toThrow(EhrError);
  });
});

describe('FHIR video meetings: traps', () => {
  const VIDEO = 'Appointment/appt-0002';

  it('skips appointments that are not booked, arrived or checked in, and those without a virtual-service address', () => {
    expect(meetings(changed(VIDEO, (r) => { r.status = 'fulfilled'; }))).toEqual([]);
    expect(meetings(changed(VIDEO, (r) => { r.extension = (r.extension as { url: string }[]).filter((e) => !e.url.includes('virtualService')); }))).toEqual([]);
  });

  it('takes an all-digit logical id when no identifier of the action-id system is there', () => {
    const resources = changed(VIDEO, (r) => { r.id = '4711'; delete r.identifier; });
    expect(meetings(resources).map((m) => m.actionId)).toEqual([4711]);
  });

  it('leaves out, and notes, a meeting with no usable action id or a link that would not fit', () => {
    const notes: string[] = [];
    expect(meetings(changed(VIDEO, (r) => { delete r.identifier; }), notes)).toEqual([]);
    expect(meetings(changed(VIDEO, (r) => { (r.identifier as { value: string }[])[0]!.value = '10000000000000001'; }), notes)).toEqual([]);
    expect(meetings(undefined, notes, { videoActionIdSystem: undefined })).toEqual([]);
    const longLink = (r: RawResource) => {
      const service = (r.extension as { url: string; extension: { url: string; valueUrl?: string }[] }[])[0]!;
      service.extension[1]!.valueUrl = `https://video.example.se/${'x'.repeat(60)}`;
    };
    expect(meetings(changed(VIDEO, longLink), notes)).toEqual([]);
    expect(notes).toEqual([
      'video meeting left out: no usable actionId',
      'video meeting left out: actionId beyond the exact integer range',
      'video meeting left out: no usable actionId',
      'video meeting left out: meetingLink longer than 64 characters',
    ]);
  });

  it('refuses a booked meeting without an end (FHIR requires one) as a bad response', () => {
    expect(() => meetings(changed(VIDEO, (r) => { delete r.end; }))).toThrow(EhrError);
  });
});
