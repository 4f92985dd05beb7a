/** PrescriptionRecords (ns urn:example:ehr:prescription:2, the "interim" message) -> PrescriptionRecord[]. */
import type { PrescriptionRecord } from '../../domain/records/index.js';
import { XSD_VERSION } from '../../adapters/ehr-xml/common-shapes.js';
import { documentType, reading } from '../../adapters/ehr-xml/document.js';
import { BOOL, ID, STR, TV } from '../../adapters/ehr-xml/leaves.js';
import { PRESCRIPTION, UNIT_DATA, UNIT_REF } from '../../adapters/ehr-xml/medications-parts.js';
import { many, obj, req, wrap } from '../../adapters/ehr-xml/shape.js';

const CARE_PROVIDER = obj({
  CareProviderUnit: UNIT_REF,
  CareProviderType: STR,
  CareProviderName: STR,
  CareProviderID: ID,
  CareProviderPosition: obj({ CareProviderPositionID: ID, CareProviderPositionName: STR }),
});

const EXTRACT = obj({
  ehr_id: req(ID),
  ehr_system: ID,
  time_created: req(TV),
  Prescription: PRESCRIPTION,
  HCMContact: obj({ ContactType: STR, ContactStatus: STR, ContactBegin: TV, ContactEnd: TV, rc_id: ID }),
  CreationUnit: UNIT_REF,
  ResponsibleUnit: UNIT_REF,
  AccessZoneUnit: UNIT_REF,
  HeadCareproviderUnit: UNIT_REF,
  Patient: obj({
    PatientNameData: obj({
      PatientNames: obj({ Name: many(STR) }),
      PatientFamilyName: STR,
      PatientMiddleName: STR,
      // Plain text here, unlike the attribute form of PatientRecords and journal notes.
      PatientGivenName: many(STR),
    }),
    PatientId: ID,
    PatientProtectedId: BOOL,
  }),
  // "CareProviders" really appears twice: a wrapper around repeated groups.
  CareProviders: wrap('CareProviders', obj({ CareProvider: many(CARE_PROVIDER) })),
  Units: wrap('UnitData', UNIT_DATA),
});

const DOCUMENT = documentType('PrescriptionRecords', obj({
  PrescriptionRecord: many(obj({ XSDVersion: req(XSD_VERSION), PrescriptionEHRExtract: many(EXTRACT) })),
}));

export const prescriptionsReading = reading(DOCUMENT, (root) => root.PrescriptionRecord as PrescriptionRecord[]);
