import type { BookedAppointmentsResult, PatientRecord } from '../../src/domain/records/index.js';

/** A minimal demographic record of one patient, as the mapper would produce it. */
export function patientRecord(patientId: string, options: { protectedIdentity?: boolean } = {}): PatientRecord {
  return {
    XSDVersion: { version: 3.2 },
    PatientEHRExtract: [{
      ehr_id: { extension: `ehr-${patientId}`, root: '1.2.752.99999.1.1' },
      time_created: { value: '20250303080512' },
      Patient: {
        PatientID: { extension: patientId, root: '1.2.752.129.2.1.3.1' },
        PatientProtectedId: options.protectedIdentity ?? false,
        PatientVersionDateTime: { value: '20240611143012' },
        PatientName: { PatientFamilyName: 'Testsson', PatientGivenName: [{ qualifier: 'CL', value: 'Test' }] },
        PhoneNumbers: { Phone: [{ PhoneType: 'MOBIL', PhoneNumber: '0701740605' }] },
        PatientAddresses: { PatientAddress: [{ PatientAddressStreet: 'Tolvansgatan 12', PatientAddressCity: 'Stockholm' }] },
        EmailAddresses: { Email: [{ EmailAddress: 'test@example.se' }] },
      },
    }],
  } as PatientRecord;
}

/** A bookings answer with one Booking per (contactId, UTC start) pair. */
export function bookings(...items: Array<[contactId: string, typedStart: string]>): BookedAppointmentsResult[] {
  return [{
    Booking: items.map(([ContactId, TypedStartDateTime]) => ({
      ContactId, TypedStartDateTime, StartTime: TypedStartDateTime.slice(0, 16).replace('T', ' '), Any: [],
    })),
    RegisteredBooking: [],
    ResultCode: 'OK',
    Any: [],
  }] as BookedAppointmentsResult[];
}
