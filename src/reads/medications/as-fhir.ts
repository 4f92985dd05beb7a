/**
 * getMedications as FHIR (docs/upstream-fhir.md#39-medications-operation-9 read backwards): each
 * extract a MedicationRequest, its product a Medication (as-fhir-product.ts), its dosages Dosages
 * (as-fhir-dosage.ts), its contact an Encounter, its requester a PractitionerRole of the unit the
 * extract describes. The `fhir-r4` adapter reading these back answers the records they came from.
 */
import type { PrescriptionExtract } from '../../domain/records/index.js';
import type { FhirForm, AsFhirContext, FhirResource } from '../as-fhir.js';
import { fhirDateTime, fhirOnly } from '../as-fhir-common.js';
import { fhirInstant, identifierOf, partIdOf, systemOf, textConcept } from '../as-fhir-datatypes.js';
import { encounterOf } from '../as-fhir-encounter.js';
import { pascalUnitContacts, WrittenResources } from '../as-fhir-parties.js';
import { dosageOf } from './as-fhir-dosage.js';
import { Products } from './as-fhir-product.js';

type Prescription = NonNullable<PrescriptionExtract['Prescription']>;

/** MedicationRequest.status, a required binding: a status read from FHIR is one of these already. */
const STATUSES: ReadonlySet<string> = new Set(['active', 'on-hold', 'cancelled', 'completed', 'entered-in-error', 'stopped', 'draft', 'unknown']);
/** The legacy words and the codes the same treatment has over FHIR (the equivalence test pairs them). */
const LEGACY_STATUSES: ReadonlyMap<string, string> = new Map([['ACTIVE', 'active'], ['INVALIDATED', 'stopped']]);
/** The care provider the inbound reads, the requester, and the legacy word for the prescriber. */
const REQUESTER: ReadonlySet<string> = new Set(['requester', 'FORSKRIVARE']);

/**
 * The status: the code as it is, a legacy word as its code, else `active` for an active treatment or
 * `unknown` (R4 requires a status), with the word kept as the status reason's text.
 */
function status(p: Prescription | undefined) {
  const word = p?.MedicationTreatmentStatusDetail?.TreatmentStatus;
  if (word !== undefined && STATUSES.has(word)) return { status: word };
  const mapped = word === undefined ? undefined : LEGACY_STATUSES.get(word);
  if (mapped !== undefined) return { status: mapped };
  return { status: p?.MedicationActive === true ? 'active' : 'unknown', statusReason: textConcept(word) };
}

function dosages(p: Prescription | undefined, zone: string) {
  if (p === undefined) return undefined;
  const asNeededBoolean = p.PrescriptionDosages?.WhenNeeded ?? (p.AccordingToSchedule === undefined ? undefined : !p.AccordingToSchedule);
  const r = p.RouteDetail;
  const route = r === undefined ? undefined : fhirOnly({ coding: r.routeCode === undefined ? undefined : [{ code: r.routeCode }], text: r.name });
  const first = fhirOnly({ asNeededBoolean, route: route === undefined || Object.keys(route).length === 0 ? undefined : route });
  const plugins = (p.PrescriptionDosages?.DosagePlugin ?? []).flatMap((d) => (d.IX3Dosage === undefined ? [] : [d.IX3Dosage]));
  // What only the first Dosage says needs a first Dosage, though the record has no dosage to put it in.
  if (plugins.length === 0) return Object.keys(first).length === 0 ? undefined : [first];
  return plugins.map((d, i) => dosageOf(d, i === 0 ? first : {}, zone));
}

/** The prescription's start where the first dosage's start does not say it: the validity of the prescription. */
function dispenseRequest(p: Prescription | undefined, zone: string) {
  const start = fhirDateTime(p?.PrescriptionStartDateTime, zone);
  const firstDosageStart = p?.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage?.DoseStart?.StartDate;
  return start === undefined || firstDosageStart !== undefined ? undefined : { validityPeriod: { start } };
}

/** The requester, as a PractitionerRole of the extract's unit that has its HSA id. */
function requester(e: PrescriptionExtract, out: WrittenResources, ctx: AsFhirContext) {
  const cp = e.CareProviders.CareProviders.flatMap((g) => g.CareProvider).find((c) => c.CareProviderType !== undefined && REQUESTER.has(c.CareProviderType));
  if (cp === undefined) return undefined;
  const hsaId = cp.CareProviderUnit?.UnitID?.extension ?? e.ResponsibleUnit?.UnitID?.extension;
  const u = e.Units.UnitData.find((x) => x.UnitID?.extension === hsaId) ?? (hsaId === undefined ? e.Units.UnitData[0] : undefined);
  const unit = out.unit({
    hsaId: u?.UnitID?.extension ?? hsaId,
    internalId: u?.UnitInternalID,
    name: u?.UnitName,
    headHsaId: u?.UnitHeadCareProviderUnitID,
    ...pascalUnitContacts(u?.PhoneNumbers.PhoneData, u?.EmailAddresses.EmailData, u?.UnitAddresses.UnitAddressData[0]),
  }, ctx);
  return out.staff({ hsaId: cp.CareProviderID?.extension, name: cp.CareProviderName, position: cp.CareProviderPosition?.CareProviderPositionName, unit }, ctx);
}

function request(e: PrescriptionExtract, products: Products, out: WrittenResources, ctx: AsFhirContext): FhirResource[] {
  const p = e.Prescription;
  const c = e.HCMContact;
  const encounter = c === undefined ? undefined : encounterOf({
    id: c.rc_id === undefined ? partIdOf('Encounter', e.ehr_id, 'contact', ctx) : ctx.idOf('Encounter', c.rc_id),
    status: c.ContactStatus, type: c.ContactType, start: c.ContactBegin?.value, end: c.ContactEnd?.value,
  }, ctx);
  const lastUpdated = fhirInstant(p?.PrescriptionVersionDateTime, ctx.zone);
  const choice = p?.MedicationChoice;
  const allowed = choice === undefined ? undefined
    : fhirOnly({ system: choice.codeSystem === undefined ? undefined : systemOf(choice.codeSystem), display: choice.displayName?.value });
  const main = fhirOnly({
    resourceType: 'MedicationRequest', id: ctx.idOf('MedicationRequest', e.ehr_id),
    meta: lastUpdated === undefined ? undefined : { lastUpdated },
    identifier: p?.MedicationTreatmentId === undefined ? undefined : [identifierOf(p.MedicationTreatmentId)],
    ...status(p),
    // R4 requires an intent (1..1); a prescription is an order, which is all the record says of its kind.
    intent: 'order',
    category: p?.PrescriptionType === undefined ? undefined : [textConcept(p.PrescriptionType)],
    ...products.of(p?.MainProductTreatment),
    subject: { reference: ctx.patientReference },
    encounter: encounter === undefined ? undefined : { reference: `Encounter/${encounter.id}` },
    authoredOn: fhirDateTime(e.time_created, ctx.zone),
    requester: requester(e, out, ctx),
    reasonCode: p?.PrescriptionReasonText === undefined ? undefined : [textConcept(p.PrescriptionReasonText)],
    courseOfTherapyType: textConcept(p?.MedicationType),
    dosageInstruction: dosages(p, ctx.zone),
    dispenseRequest: dispenseRequest(p, ctx.zone),
    substitution: allowed === undefined || Object.keys(allowed).length === 0 ? undefined : { allowedCodeableConcept: { coding: [allowed] } },
  });
  return encounter === undefined ? [main] : [main, encounter];
}

export const medicationsAsFhir = {
  types: ['MedicationRequest'],
  app: { search: 'MedicationRequest?patient={id}&_include=MedicationRequest:medication', view: 'medications', position: 30 },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    const products = new Products(out, ctx);
    for (const extract of items.flatMap((r) => r.PrescriptionEHRExtract)) out.add(...request(extract, products, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getMedications'>;
