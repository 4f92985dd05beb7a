import type {
  AttentionSignal, AttentionSignalEhrExtract, BookedAppointmentsResult, Booking, CareContact, ContactEhrExtract,
  JournalNoteRecord, PatientData, PatientRecord, PatientV2, PatientV2Data, PrescriptionRecord, VideoMeeting,
} from '../../../src/domain/records/index.js';

export const ZONE = 'Europe/Stockholm';
export const PATIENT = '191212121212';

const ID = (extension: string) => ({ extension, root: '1.2.752.99999.1.1' });

/** A care contact (vendor layout) beginning at `begin`, a compact local time. */
export const contact = (contactInternalID: string, begin: string): ContactEhrExtract => ({
  contact: {
    contactInternalID, contactBeginDateTime: { value: begin },
    contactSecrecyLevels: { secrecyLevel: [] }, actions: { action: [] },
  },
  units: { unit: [] },
  careProviders: { careProvider: [] },
});

/** The care-contacts answer: one element holding the extracts. */
export const contacts = (...extracts: ContactEhrExtract[]): CareContact[] => [{ contactEHRExtract: extracts }];

export const meeting = (actionId: number, startDateTimeInUnix: number): VideoMeeting => ({
  actionId, startDateTimeInUnix, endDateTimeInUnix: startDateTimeInUnix + 1_800_000,
  meetingLink: `https://video.example.se/m/${actionId}`, otherStaffList: [],
});

/** An attention signal (vendor layout) created at `created`, a compact local time. */
export const signal = (id: string, created: string): AttentionSignalEhrExtract => ({
  time_created: { value: created },
  AttentionSignal: { RcId: ID(id), MedicalRecordLinks: { MedicalRecordLinkData: [] } },
  Units: { Unit: [] },
  CareProviders: { CareProvider: [] },
});

export const signals = (...extracts: AttentionSignalEhrExtract[]): AttentionSignal[] =>
  [{ AttentionSignalEHRExtract: extracts, XSDVersion: { version: 2.1 } }];

/** A patient v2 (vendor layout) with every kind of contact detail the masking must remove. */
export function patientV2Data(overrides: Partial<PatientV2Data> = {}, id = PATIENT): PatientV2Data {
  return {
    patientID: { extension: id, root: '1.2.752.129.2.1.3.1' },
    patientProtectedId: false,
    patientSecrecyGroups: ['PRIMARVARD'],
    patientName: { familyName: 'Tolvansson', givenName: [{ qualifier: 'CL', value: 'Tolvan' }] },
    patientSex: 'M',
    patientAddresses: [{ PatientAddressType: 'FOLKBOKFORING', PatientAddressStreet: 'Tolvansgatan 12', PatientAddressCity: 'Stockholm' }],
    phoneNumbers: { phone: [{ phoneType: 'MOBIL', phoneNumber: '0701740605' }] },
    emailAddresses: { Email: [{ EmailType: 'PRIVAT', EmailAddress: 'tolvan.tolvansson@example.se' }] },
    patientComment: 'Hörselnedsättning',
    patientRelatives: {
      patientRelative: [{
        patientRelativeType: 'Dotter', patientRelativeName: 'Märta Ström', patientRelativeOrder: '1',
        patientRelativeHomePhonenumber: '08-46500413', patientRelativeWorkPhonenumber: '0701740612',
        patientRelativeAddress: 'Strömgatan 8, 118 21 Stockholm', patientRelativeCOAddress: 'c/o Ström',
        patientRelativeStreetAddress: 'Strömgatan 8', patientRelativePostalCode: '118 21', patientRelativeCity: 'Stockholm',
        patientRelativeComment: 'Närmast anhörig',
      }],
    },
    patientDataRegister: { patientCountry: 'SE', patientCounty: '01', patientCity: '0180', patientDistrict: '218003' },
    patientConnectedInactiveNumbers: { patientConnectedInactiveNumber: [] },
    patientConnectedActiveNumbers: { patientConnectedActiveNumber: [] },
    patientPasses: { patientPass: [{ patientPassTypeDiscountCard: 'Frikort', patientPassNumber: '0012345678' }] },
    patientOtherIdentifiers: { patientOtherIdentifier: [] },
    ...overrides,
  };
}

export const patientV2 = (...patients: PatientV2Data[]): PatientV2[] =>
  [{ patientEHRExtract: patients.map((patient, i) => ({ ehrId: ID(`v2-${i}`), patient })) }];

/** `utc` is the instant as `YYYY-MM-DDThh:mm:ssZ`; StartTime is shown as given. */
export const booking = (ContactId: string, utc: string, StartTime = 'shown'): Booking => ({
  ContactId, StartTime, TypedStartDateTime: utc, Any: [],
});

export const bookingResult = (bookings: Booking[], withPatient = true): BookedAppointmentsResult => ({
  Booking: bookings,
  RegisteredBooking: [{ BookingId: 'WB-1', StartTime: 'shown', TypedStartDateTime: '2025-10-27T07:15:00Z', Any: [] }],
  ResultCode: 'OK',
  Any: [],
  ...(withPatient && {
    Patient: {
      Name: 'Tolvan Tolvansson',
      PersonNumbers: [{ Number: PATIENT }],
      Addresses: [{ StreetAddress: 'Tolvansgatan 12', City: 'Stockholm' }],
      PhoneNumbers: [{ Number: '0701740605' }],
    },
  }),
});

export const prescriptions = (...created: string[]): PrescriptionRecord[] => [{
  XSDVersion: { version: 2.7 },
  PrescriptionEHRExtract: created.map((value, i) => ({
    ehr_id: ID(`rx-${i}`), time_created: { value }, CareProviders: { CareProviders: [] }, Units: { UnitData: [] },
  })),
}];

export const journal = (...created: string[]): JournalNoteRecord[] => [{
  XSDVersion: { version: 3.1 },
  JournalNoteEHRExtract: created.map((value, i) => ({
    ehr_id: ID(`note-${i}`), time_created: { value }, CareProviders: { CareProvider: [] }, Units: { Unit: [] },
  })),
}];

export function patientData(overrides: Partial<PatientData> = {}, id = PATIENT): PatientData {
  return {
    PatientID: { extension: id, root: '1.2.752.129.2.1.3.1' },
    PatientSex: 'M',
    PatientProtectedId: false,
    PatientBirthDate: { value: '19121212' },
    PatientVersionDateTime: { value: '20240611143012' },
    PatientName: {
      PatientFamilyName: 'Tolvansson', PatientMiddleName: 'Öberg',
      PatientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }],
    },
    PatientDataRegister: { PatientCounty: '01', PatientCity: '0180' },
    PhoneNumbers: { Phone: [{ PhoneType: 'MOBIL', PhoneNumber: '0701740605', PhoneComment: 'Nås bäst efter 16.00' }] },
    EmailAddresses: { Email: [{ EmailType: 'PRIVAT', EmailAddress: 'tolvan.tolvansson@example.se' }] },
    PatientAddresses: {
      PatientAddress: [{
        PatientAddressType: 'FOLKBOKFORING', PatientAddressCO: 'c/o Märta Ström', PatientAddressStreet: 'Tolvansgatan 12 lgh 1203',
        PatientAddressPostcode: '118 20', PatientAddressCity: 'Stockholm', PatientAddressCountry: 'Sverige',
        PatientAddressCountryCode: 'SE', PatientAddressComment: 'Portkod 1212',
      }],
    },
    ...overrides,
  };
}

export const patientRecords = (...patients: (PatientData | undefined)[]): PatientRecord[] => [{
  XSDVersion: { version: 3.2 },
  PatientEHRExtract: patients.map((Patient, i) => ({
    ehr_id: ID(`pat-${i}`), time_created: { value: '20250303080512' }, ...(Patient && { Patient }),
  })),
}];

/** Freezes every object reachable from `value`, so any mutation throws (modules are strict). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
