/**
 * Operation 6, care contacts (docs/upstream-fhir.md#36-care-contacts-operation-6): one extract per
 * Encounter, in `[{contactEHRExtract: [...]}]`. Only the core of the vendor's v2 layout is mapped.
 */
import type { CareContact, ContactEhrExtract } from '../../domain/records/index.js';
import { definedOnly } from '../../domain/records/defined.js';
import { staffOf, unitOf } from '../../adapters/ehr-fhir/care-parties.js';
import { hasCode, textOf } from '../../adapters/ehr-fhir/codes.js';
import { ts } from '../../adapters/ehr-fhir/fhir-time.js';
import { own, unitIdOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { MapContext } from '../../adapters/ehr-fhir/map-context.js';
import { answerable, type ReadInput } from '../../adapters/ehr-fhir/read-input.js';
import { referenceKey, type ResourceIndex } from '../../adapters/ehr-fhir/resource-index.js';
import type { Encounter } from './resource-types.js';
import { contactPatient, securityCodes, vendorCareProvider, vendorUnitOf } from '../../adapters/ehr-fhir/vendor-parts.js';

const PHYSICAL_TYPE = 'http://terminology.hl7.org/CodeSystem/location-physical-type';

/** The name of the Encounter's location of a physical type (`ro` room, `bd` bed). */
function placeOf(encounter: Encounter, code: string, index: ResourceIndex): string | undefined {
  for (const entry of encounter.location ?? []) {
    const location = index.get(entry.location, 'Location');
    const type = entry.physicalType ?? location?.physicalType;
    if (hasCode(type, PHYSICAL_TYPE, code)) return location?.name;
  }
  return undefined;
}

function careProviders(encounter: Encounter, index: ResourceIndex): ContactEhrExtract['careProviders']['careProvider'] {
  return (encounter.participant ?? []).flatMap((p) => vendorCareProvider(textOf(p.type?.[0]), staffOf(p.individual, index)));
}

function extract(encounter: Encounter, input: ReadInput, ctx: MapContext): ContactEhrExtract {
  const unit = unitOf(encounter.serviceProvider, input.index);
  return definedOnly({
    ehrId: own(encounter, ctx.idRoot),
    timeCreated: ts(encounter.meta?.lastUpdated, ctx),
    contact: definedOnly({
      contactInternalID: encounter.id,
      contactPerformingUnit: referenceKey(encounter.serviceProvider?.reference)?.split('/')[1],
      contactVersionDateTime: ts(encounter.meta?.lastUpdated, ctx),
      contactTypeOfVisit: textOf(encounter.type?.[0]),
      contactVisitType: textOf(encounter.serviceType),
      contactCategory1: encounter.class.display ?? encounter.class.code,
      contactStatus: encounter.status,
      contactActive: encounter.status !== 'cancelled',
      contactBeginDateTime: ts(encounter.period?.start, ctx),
      contactEndDateTime: ts(encounter.period?.end, ctx),
      contactRoom: placeOf(encounter, 'ro', input.index),
      contactBed: placeOf(encounter, 'bd', input.index),
      contactSecrecyLevels: { secrecyLevel: securityCodes(encounter) },
      actions: { action: [] },
      discharge: encounter.hospitalization === undefined ? undefined : definedOnly({
        dischargeDestination: textOf(encounter.hospitalization.dischargeDisposition),
        dischargeDateTime: ts(encounter.period?.end, ctx),
      }),
    }),
    patient: contactPatient(input.patient),
    units: { unit: unit === undefined ? [] : [vendorUnitOf(unit)] },
    contactPerformingUnit: unitIdOf(unit?.hsaId),
    contactHeadCareProviderUnit: unitIdOf(unit?.headHsaId),
    careProviders: { careProvider: careProviders(encounter, input.index) },
  });
}

export function mapCareContacts(input: ReadInput, ctx: MapContext): CareContact[] {
  // One element, however many contacts: the read's selection leaves out an element left empty.
  return [{ contactEHRExtract: answerable(input, 'Encounter').map((e) => extract(e, input, ctx)) }];
}
