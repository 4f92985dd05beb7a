/**
 * getContacts as FHIR (docs/upstream-fhir.md#36-care-contacts-operation-6 read backwards): each
 * contactEHRExtract an Encounter of the patient, its performing unit the `serviceProvider` (under
 * its head care provider), its care providers participants (as-fhir-parties.ts), its room and bed
 * Locations of those physical types. The patient block is the Patient's own, which the patient
 * reads serve.
 */
import type { ContactEhrExtract } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm, FhirResource, RecordId } from '../as-fhir.js';
import { fhirOnly, reference, securityLabels } from '../as-fhir-common.js';
import { fhirInstant, logicalIdOf, textConcept, UNKNOWN } from '../as-fhir-datatypes.js';
import { madeFromLogicalId, recordKeyOf } from '../as-fhir-vendor-parts.js';
import { encounterOf } from '../as-fhir-encounter.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { careProviderOf, performingUnitFacts, type UnitsByHsaId } from './as-fhir-parties.js';

type Contact = NonNullable<ContactEhrExtract['contact']>;

const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
/**
 * R4's encounter classes (v3 ActEncounterCode) by their display, which is what a category read from
 * FHIR holds (Text(class)): such a category is written as its coding, so a search by class finds it.
 */
const CLASSES: ReadonlyMap<string, string> = new Map([
  ['ambulatory', 'AMB'], ['emergency', 'EMER'], ['field', 'FLD'], ['home health', 'HH'], ['inpatient encounter', 'IMP'],
  ['inpatient acute', 'ACUTE'], ['inpatient non-acute', 'NONAC'], ['observation encounter', 'OBSENC'], ['pre-admission', 'PRENC'],
  ['short stay', 'SS'], ['virtual', 'VR'],
]);
const PHYSICAL_TYPE = 'http://terminology.hl7.org/CodeSystem/location-physical-type';
const PLACES = [['ro', 'Room', 'contactRoom'], ['bd', 'Bed', 'contactBed']] as const;

/**
 * `class` from contactCategory1: a class display as its coding, any other text as the display
 * alone; without one, R4 still requires a class, and the element says it is unknown.
 */
function classOf(category: string | undefined) {
  if (category === undefined) return UNKNOWN;
  const code = CLASSES.get(category);
  return code === undefined ? { display: category } : { system: ACT_CODE, code, display: category };
}

const recordIdOf = (ii: ContactEhrExtract['ehrId']): RecordId | undefined =>
  (ii?.root === undefined || ii.extension === undefined ? undefined : { root: ii.root, extension: ii.extension });

/**
 * The Encounter's id: from `ehrId` where it was made from a logical id (Own), else the contact's
 * own ids (a legacy `ehrId` names the patient's whole record), else a digest of the extract itself.
 */
function encounterId(e: ContactEhrExtract, ctx: AsFhirContext): string {
  const ehrId = recordIdOf(e.ehrId);
  if (ehrId !== undefined && madeFromLogicalId(ehrId, ctx)) return ctx.idOf('Encounter', ehrId);
  const internal = e.contact?.contactInternalID;
  if (internal !== undefined) return logicalIdOf('Encounter', internal, ctx);
  return ctx.idOf('Encounter', recordKeyOf('Encounter', [e.contact?.rcId], e, ctx));
}

/** The room and the bed, each a Location of its physical type, named as the record names it, at the contact's unit. */
function places(c: Contact | undefined, unit: { reference: string } | undefined, out: WrittenResources, ctx: AsFhirContext) {
  return PLACES.flatMap(([code, display, member]) => {
    const name = c?.[member];
    if (name === undefined) return [];
    const physicalType = { coding: [{ system: PHYSICAL_TYPE, code, display }] };
    const id = ctx.idOf('Location', { root: ctx.idRoot, extension: ['Location', unit?.reference ?? '', code, name].join('|') });
    out.add({ resourceType: 'Location', id, name, physicalType });
    return [{ location: reference('Location', id), physicalType }];
  });
}

/** `hospitalization`, only for a discharge: its destination, or R4's "unknown" where the record has none. */
const hospitalization = (discharge: Contact['discharge']) => (discharge === undefined ? undefined
  : discharge.dischargeDestination === undefined ? UNKNOWN : { dischargeDisposition: textConcept(discharge.dischargeDestination) });

function encounter(e: ContactEhrExtract, serviceProvider: { reference: string } | undefined, units: UnitsByHsaId, out: WrittenResources, ctx: AsFhirContext): FhirResource {
  const c = e.contact;
  // contactVersionDateTime and timeCreated are both TS(meta.lastUpdated).
  const updated = c?.contactVersionDateTime?.value ?? e.timeCreated?.value;
  const lastUpdated = fhirInstant(updated === undefined ? undefined : { value: updated }, ctx.zone);
  const meta = fhirOnly({ lastUpdated, security: securityLabels(c?.contactSecrecyLevels.secrecyLevel) });
  const participant = e.careProviders.careProvider.flatMap((cp) => {
    const individual = careProviderOf(cp, units, out, ctx);
    return individual === undefined ? [] : [fhirOnly({ type: cp.careProviderType === undefined ? undefined : [textConcept(cp.careProviderType)], individual })];
  });
  return fhirOnly({
    ...encounterOf({
      id: encounterId(e, ctx), status: c?.contactStatus, type: c?.contactTypeOfVisit,
      start: c?.contactBeginDateTime?.value, end: c?.contactEndDateTime?.value, serviceProvider,
    }, ctx),
    meta: Object.keys(meta).length === 0 ? undefined : meta,
    class: classOf(c?.contactCategory1),
    serviceType: textConcept(c?.contactVisitType),
    participant,
    location: places(c, serviceProvider, out, ctx),
    hospitalization: hospitalization(c?.discharge),
  });
}

export const contactsAsFhir = {
  types: ['Encounter'],
  app: { search: 'Encounter?patient={id}&_include=Encounter:service-provider', view: 'list', position: 15 },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    const extracts = items.flatMap((i) => i.contactEHRExtract);
    // Every performing unit first, so a care provider's unit that is one of them is named as that unit.
    const units = new Map<string, { reference: string }>();
    const providers = extracts.map((e) => {
      const facts = performingUnitFacts(e);
      const ref = facts === undefined ? undefined : out.unit(facts, ctx);
      if (ref !== undefined && facts?.hsaId !== undefined && !units.has(facts.hsaId)) units.set(facts.hsaId, ref);
      return ref;
    });
    extracts.forEach((e, i) => out.add(encounter(e, providers[i], units, out, ctx)));
    return out.list();
  },
} satisfies FhirForm<'getContacts'>;
