/**
 * A prescription's product as the Medication the inbound mapper reads it from
 * (docs/upstream-fhir.md#39-medications-operation-9): the trade name is Text(`code`), the NPL id and
 * the ATC code its codings, the strength `ingredient[0].strength.numerator` as written per `1` of no
 * unit (a legacy `mg/ml` stays in the numerator's unit, which fhir-strength.ts reads back alone), the form
 * Text(`form`). A product with an NPL id is one Medication shared by the prescriptions that name it;
 * one the answer already holds with other facts, or one without an NPL id, is contained.
 */
import { ATC_URI, NPL_OID, rootOf } from '../../adapters/ehr-fhir/identifiers.js';
import type { PrescriptionExtract } from '../../domain/records/index.js';
import type { AsFhirContext, FhirResource } from '../as-fhir.js';
import type { WrittenResources } from '../as-fhir-parties.js';
import { fhirOnly, reference } from '../as-fhir-common.js';
import { fhirQuantityValue, systemOf, textConcept, UNKNOWN } from '../as-fhir-datatypes.js';

type Product = NonNullable<NonNullable<PrescriptionExtract['Prescription']>['MainProductTreatment']>;

/** The id of a contained Medication within its MedicationRequest. */
const CONTAINED_ID = 'product';

/** The members of MedicationRequest that name the product. */
export interface ProductMembers {
  medicationReference?: { reference: string };
  medicationCodeableConcept?: typeof UNKNOWN;
  contained?: FhirResource[];
}

/**
 * The ATC coding: the legacy documents (and the inbound mapper) write it `<code> <display>`, so the
 * text is cut at its first space. Without a code system the member is still ATC by its name.
 */
function atcCoding(atc: Product['PrescriptionProduct_AtcCode']) {
  const written = /^(\S+)(?: ([^]+))?$/.exec(atc?.displayName?.value ?? '');
  if (atc === undefined || written === null) return undefined;
  const system = atc.codeSystem === undefined || atc.codeSystem === rootOf(ATC_URI) ? ATC_URI : systemOf(atc.codeSystem);
  return fhirOnly({ system, code: written[1], display: written[2] });
}


/** The strength, per one unit of the form: R4's Ratio needs a denominator with its numerator (rat-1), and the record's is one. */
function ingredient(p: Product) {
  // A legacy decimal comma (`2,5`) with a point, its text as written in `rendered-value` (fhirQuantityValue).
  const numerator = fhirOnly({ ...fhirQuantityValue(p.PrescriptionProductStrengthNumeric), unit: p.PrescriptionProductStrengthNumericUnit });
  if (Object.keys(numerator).length === 0) return undefined;
  // R4 requires the ingredient's item (1..1); the record names none but through the ATC code, so it is unknown.
  return [{ itemCodeableConcept: UNKNOWN, strength: { numerator, denominator: { value: 1 } } }];
}

function medication(p: Product, id: string): FhirResource {
  const npl = p.PrescriptionProductNplID;
  const coding = [
    ...(npl === undefined ? [] : [{ system: systemOf(npl.root), code: npl.extension }]),
    ...[atcCoding(p.PrescriptionProduct_AtcCode)].flatMap((c) => (c === undefined ? [] : [c])),
  ];
  const code = fhirOnly({ coding, text: p.PrescriptionProductTradeName });
  return fhirOnly({
    resourceType: 'Medication', id,
    code: Object.keys(code).length === 0 ? undefined : code,
    form: textConcept(p.PrescriptionProductDrugFormTextSv),
    ingredient: ingredient(p),
  });
}

/** The products of one answer, each NPL id's Medication written once. */
export class Products {
  private readonly shared = new Map<string, string>();

  constructor(private readonly out: WrittenResources, private readonly ctx: AsFhirContext) {}

  /** The product's members of its MedicationRequest; R4 requires `medication[x]`, so an unknown product is said to be one. */
  of(product: Product | undefined): ProductMembers {
    if (product === undefined || Object.keys(product).length === 0) return { medicationCodeableConcept: UNKNOWN };
    const npl = product.PrescriptionProductNplID;
    if (npl !== undefined && npl.root === NPL_OID) {
      const id = this.ctx.idOf('Medication', npl);
      const resource = medication(product, id);
      const written = JSON.stringify(resource);
      const before = this.shared.get(id);
      if (before === undefined) {
        this.shared.set(id, written);
        this.out.referenced(resource);
      }
      if (before === undefined || before === written) return { medicationReference: reference('Medication', id) };
    }
    return { medicationReference: { reference: `#${CONTAINED_ID}` }, contained: [medication(product, CONTAINED_ID)] };
  }
}
