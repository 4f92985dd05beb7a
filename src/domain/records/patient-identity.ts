/** What the PatientRecords document says about one patient: known, protected, and its v2 form. */
import { compactDateToIso, compactToEpochMs } from '../time/local-time.js';
import { definedOnly } from './defined.js';
import type { PatientData, PatientRecord } from './patient-record.js';
import type { PatientV2 } from './patient-v2.js';

function dataOf(records: PatientRecord[], patientId: string): PatientData[] {
  const found: PatientData[] = [];
  for (const record of records) {
    for (const extract of record.PatientEHRExtract) {
      if (extract.Patient?.PatientID.extension === patientId) found.push(extract.Patient);
    }
  }
  return found;
}

export function knowsPatient(records: PatientRecord[], patientId: string): boolean {
  return dataOf(records, patientId).length > 0;
}

/** True when any extract of the patient marks the identity protected: when in doubt, protect. */
export function isProtectedIdentity(records: PatientRecord[], patientId: string): boolean {
  return dataOf(records, patientId).some((d) => d.PatientProtectedId === true);
}

/** The extract with the latest PatientVersionDateTime (an instant); one without it ranks last. */
function latest(candidates: PatientData[], zone: string): PatientData | undefined {
  let best: PatientData | undefined;
  let bestMs = -Infinity;
  for (const data of candidates) {
    const version = data.PatientVersionDateTime?.value;
    const ms = version === undefined ? -Infinity : compactToEpochMs(version, zone);
    if (best === undefined || ms > bestMs) {
      best = data;
      bestMs = ms;
    }
  }
  return best;
}

export function toPatientV2(records: PatientRecord[], patientId: string, zone: string): PatientV2 | undefined {
  const data = latest(dataOf(records, patientId), zone);
  if (!data) return undefined;
  const name = data.PatientName;
  const birth = data.PatientBirthDate?.value;
  const version = data.PatientVersionDateTime?.value;
  return definedOnly<PatientV2>({
    personalIdentityNumber: data.PatientID.extension,
    name: definedOnly({
      givenNames: (name?.PatientGivenName ?? []).flatMap((g) => (g.value === undefined ? [] : [g.value])),
      middleName: name?.PatientMiddleName,
      familyName: name?.PatientFamilyName,
    }),
    // A date, not an instant: no zone arithmetic.
    birthDate: birth === undefined ? undefined : compactDateToIso(birth),
    sex: data.PatientSex,
    protectedIdentity: data.PatientProtectedId,
    addresses: data.PatientAddresses.PatientAddress.map((a) => definedOnly({
      type: a.PatientAddressType,
      careOf: a.PatientAddressCO,
      street: a.PatientAddressStreet,
      postalCode: a.PatientAddressPostcode,
      city: a.PatientAddressCity,
      country: a.PatientAddressCountry,
      countryCode: a.PatientAddressCountryCode,
      comment: a.PatientAddressComment,
    })),
    phoneNumbers: data.PhoneNumbers.Phone.map((p) => definedOnly({
      type: p.PhoneType, number: p.PhoneNumber, comment: p.PhoneComment,
    })),
    emailAddresses: data.EmailAddresses.Email.map((e) => definedOnly({
      type: e.EmailType, address: e.EmailAddress, comment: e.EmailComment,
    })),
    updatedDateTimeInUnix: version === undefined ? undefined : compactToEpochMs(version, zone),
  });
}
