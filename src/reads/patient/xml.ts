/** PatientRecords (ns urn:example:ehr:patient:3) -> PatientRecord[]. */
import type { PatientRecord } from '../../domain/records/index.js';
import { documentType, reading } from '../../adapters/ehr-xml/document.js';
import { GIVEN_NAME, XSD_VERSION } from '../../adapters/ehr-xml/common-shapes.js';
import { BOOL, DATE_TV, ID, STR, TV } from '../../adapters/ehr-xml/leaves.js';
import { many, obj, req, wrap } from '../../adapters/ehr-xml/shape.js';

const PATIENT_DATA = obj({
  PatientID: req(ID),
  rc_id: ID,
  PatientInternalID: STR,
  PatientComment: STR,
  PatientSex: STR,
  PatientProtectedId: BOOL,
  PatientBirthDate: DATE_TV,
  PatientVersionDateTime: TV,
  PatientName: obj({ PatientFamilyName: STR, PatientMiddleName: STR, PatientGivenName: many(GIVEN_NAME) }),
  PatientDataRegister: obj({ PatientCounty: STR, PatientCity: STR, PatientDistrict: STR, PatientCountry: STR }),
  PhoneNumbers: wrap('Phone', obj({ PhoneComment: STR, PhoneType: STR, PhoneNumber: STR })),
  EmailAddresses: wrap('Email', obj({ EmailType: STR, EmailComment: STR, EmailAddress: STR })),
  PatientAddresses: wrap('PatientAddress', obj({
    PatientAddressType: STR,
    PatientAddressCO: STR,
    PatientAddressCountryCode: STR,
    PatientAddressCountry: STR,
    PatientAddressPostcode: STR,
    PatientAddressCity: STR,
    PatientAddressStreet: STR,
    PatientAddressComment: STR,
  })),
});

const UNIT_ID = obj({ UnitID: ID });

const EXTRACT = obj({
  ehr_id: req(ID),
  ehr_system: ID,
  time_created: req(TV),
  Patient: PATIENT_DATA,
  AccessZoneUnit: UNIT_ID,
  HeadCareproviderUnit: UNIT_ID,
});

const DOCUMENT = documentType('PatientRecords', obj({
  PatientRecord: many(obj({ XSDVersion: req(XSD_VERSION), PatientEHRExtract: many(EXTRACT) })),
}));

export const patientRecordsReading = reading(DOCUMENT, (root) => root.PatientRecord as PatientRecord[]);
