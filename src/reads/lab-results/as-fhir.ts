/**
 * getLabResults as FHIR (docs/upstream-fhir.md#311-lab-results-operation-11 read backwards): each
 * extract a DiagnosticReport (category LAB, the category the read searches by), each test result an
 * Observation it names in `result` (as-fhir-observation.ts), the performing unit an Organization, each
 * attesting care provider a Practitioner: a result's performer where it attested that result, else
 * one of the report's `resultsInterpreter`. The `fhir-r4` adapter reading these back answers the
 * records they came from.
 */
import type { ChemistryReportEhrExtract } from '../../domain/records/index.js';
import type { AsFhirContext, FhirForm, FhirResource, RecordId } from '../as-fhir.js';
import { fhirDateTime, fhirOnly, reference } from '../as-fhir-common.js';
import { fhirInstant, identifierOf, partIdOf, systemOf, UNKNOWN } from '../as-fhir-datatypes.js';
import { WrittenResources } from '../as-fhir-parties.js';
import { contactEncounter, extractKeyOf, metaOf, recordIdOf, sharedExtractIds, vendorUnitFacts, type PlainIi } from '../as-fhir-vendor-parts.js';
import { ATTESTED, observationOf, observationStatus } from './as-fhir-observation.js';

type Provider = ChemistryReportEhrExtract['attestingCareProviders']['attestingCareProvider'][number];

const LAB = { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0074', code: 'LAB' }] };
/** DiagnosticReport.status, a required binding: a status read from FHIR is one of these already. */
const STATUSES: ReadonlySet<string> = new Set(['registered', 'partial', 'preliminary', 'final', 'amended', 'corrected', 'appended', 'cancelled', 'entered-in-error', 'unknown']);
/** The legacy codes and the codes the same report has over FHIR (the equivalence test pairs them). */
const LEGACY_STATUSES: ReadonlyMap<string, string> = new Map([['CO', 'final'], ['PR', 'preliminary']]);

/** The status: the code as it is, a legacy code as its FHIR code, else `unknown` (R4 requires one). */
const reportStatus = (status: string | undefined): string =>
  (status === undefined ? 'unknown' : STATUSES.has(status) ? status : LEGACY_STATUSES.get(status) ?? 'unknown');

const keyOf = (ii: PlainIi | undefined): string | undefined => ((id) => id && `${id.root}|${id.extension}`)(recordIdOf(ii));

/** An attesting care provider as a Practitioner: its position the qualification Staff(actor) reads of a Practitioner. */
function practitioner(p: Provider, id: string): FhirResource {
  const position = p.providerPosition;
  const positionId = recordIdOf(position?.careProviderPositionID);
  const qualification = fhirOnly({
    coding: positionId === undefined ? undefined : [{ system: systemOf(positionId.root), code: positionId.extension }],
    text: position?.careProviderPositionName,
  });
  return fhirOnly({
    resourceType: 'Practitioner', id,
    identifier: ((i) => i && [identifierOf(i)])(recordIdOf(p.careProviderID)),
    name: p.careProviderName === undefined ? undefined : [{ text: p.careProviderName }],
    qualification: Object.keys(qualification).length === 0 ? undefined : [{ code: qualification }],
  });
}

/**
 * The report's attesting care providers as Practitioners, by their id: those the record lists, and
 * any a result names that the list does not.
 */
class Attesters {
  private readonly byKey = new Map<string, { reference: string }>();
  readonly listed: { reference: string }[];

  constructor(providers: readonly Provider[], report: RecordId, private readonly out: WrittenResources, private readonly ctx: AsFhirContext) {
    this.listed = providers.map((p, i) => {
      const id = recordIdOf(p.careProviderID);
      return this.written(p, id === undefined ? partIdOf('Practitioner', report, `attester-${i}`, ctx) : ctx.idOf('Practitioner', id));
    });
  }

  private written(p: Provider, id: string): { reference: string } {
    const key = keyOf(p.careProviderID);
    const known = key === undefined ? undefined : this.byKey.get(key);
    if (known !== undefined) return known;
    this.out.referenced(practitioner(p, id));
    const ref = reference('Practitioner', id);
    if (key !== undefined) this.byKey.set(key, ref);
    return ref;
  }

  /** The Practitioner of an attester's id, one the list does not have made from the id alone. */
  of(ii: PlainIi | undefined): { reference: string } | undefined {
    const id = recordIdOf(ii);
    return id === undefined ? undefined : this.written({ careProviderID: id }, this.ctx.idOf('Practitioner', id));
  }
}

/** The performing unit: the one of `units.unit[]` it names, with the head care provider the extract names. */
function performingUnit(e: ChemistryReportEhrExtract) {
  const hsaId = e.performingUnit?.unitID?.extension;
  const u = e.units.unit.find((x) => x.unitID?.extension === hsaId) ?? (hsaId === undefined ? e.units.unit[0] : undefined);
  const facts = u === undefined ? {} : vendorUnitFacts(u);
  return { ...facts, hsaId: hsaId ?? facts.hsaId, headHsaId: e.headCareProviderUnit?.unitID?.extension ?? facts.headHsaId };
}

function report(e: ChemistryReportEhrExtract, shared: ReadonlySet<string>, out: WrittenResources, ctx: AsFhirContext): FhirResource[] {
  const r = e.report;
  const key = extractKeyOf('DiagnosticReport', e.ehrId, r?.rcId, shared, e, ctx);
  const attesters = new Attesters(e.attestingCareProviders.attestingCareProvider, key, out, ctx);
  const unit = performingUnit(e);
  const performer = unit.hsaId === undefined && unit.internalId === undefined ? undefined : out.unit(unit, ctx);
  const c = e.hCMContact;
  const encounter = c === undefined ? undefined : contactEncounter(c, key, c.contactSecrecyLevels.flatMap((l) => l.secrecyLevel ?? []),
    unit.internalId !== undefined && unit.internalId === c.contactPerformingUnit ? unit : {}, out, ctx);
  const tests = r?.testResult ?? [];
  const observations = tests.map((t, i) => observationOf(t, {
    id: ((rcId) => (rcId === undefined ? partIdOf('Observation', key, `test-${i}`, ctx) : ctx.idOf('Observation', rcId)))(recordIdOf(t.rcId)),
    attester: attesters.of(t.attestingCareProviderId),
    effective: r?.reportDateTime,
  }, ctx));
  // Who attested a result is read from that result; the others listed are the report's interpreters.
  const attesting = new Set(tests.filter((t) => ATTESTED.has(observationStatus(t.status))).map((t) => attesters.of(t.attestingCareProviderId)?.reference));
  const interpreters = attesters.listed.filter((p) => !attesting.has(p.reference));
  const main = fhirOnly({
    resourceType: 'DiagnosticReport', id: ctx.idOf('DiagnosticReport', key),
    meta: metaOf(r?.reportVersionDateTime, r?.secrecyClassification === undefined ? [] : [r.secrecyClassification], ctx.zone),
    identifier: r?.reportId === undefined ? undefined : [{ value: r.reportId }],
    status: reportStatus(r?.reportStatus),
    category: [LAB],
    // R4 requires a code (1..1); the record names no kind of report.
    code: UNKNOWN,
    subject: { reference: ctx.patientReference },
    encounter: encounter === undefined ? undefined : reference('Encounter', encounter.id),
    effectiveDateTime: fhirDateTime(r?.reportDateTime, ctx.zone),
    // `issued` is an instant: a date alone has none, and the inbound then reads the version time.
    issued: e.timeCreated?.value === undefined ? undefined : fhirInstant({ value: e.timeCreated.value }, ctx.zone),
    performer: performer === undefined ? undefined : [performer],
    resultsInterpreter: interpreters,
    result: observations.map((o) => reference('Observation', o.id)),
    conclusion: r?.reportCommentary === '' ? undefined : r?.reportCommentary,
  });
  return encounter === undefined ? [main, ...observations] : [main, ...observations, encounter];
}

export const labResultsAsFhir = {
  types: ['DiagnosticReport', 'Observation'],
  app: {
    search: 'Observation?patient={id}&category=http%3A%2F%2Fterminology.hl7.org%2FCodeSystem%2Fobservation-category%7Claboratory',
    view: 'lab-plots', position: 50, keepsDigits: true,
  },
  resources: (items, ctx) => {
    const out = new WrittenResources();
    const extracts = items.flatMap((i) => i.chemistryReportEHRExtract);
    const shared = sharedExtractIds(extracts.map((e) => e.ehrId));
    for (const extract of extracts) out.add(...report(extract, shared, out, ctx));
    return out.list();
  },
} satisfies FhirForm<'getLabResults'>;
