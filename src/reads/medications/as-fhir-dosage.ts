/**
 * An IX3Dosage as the FHIR Dosage src/adapters/ehr-fhir/dosage.ts reads it from
 * (docs/upstream-fhir.md#39-medications-operation-9): text and order, how often, the bounds (a
 * Period, else a Duration: a Timing has one or the other), one `timeOfDay` per DoseInstance, and
 * the first dose's quantities as written. The inbound gives every DoseInstance the first
 * `doseAndRate`, and dates each by the dosage's start, so only those come back.
 */
import type { Static } from 'typebox';
import type { Ix3DosageSchema } from '../../domain/records/prescription-parts.js';
import { fhirDateTime, fhirOnly } from '../as-fhir-common.js';
import { fhirQuantityValue } from '../as-fhir-datatypes.js';

type Ix3Dosage = Static<typeof Ix3DosageSchema>;
type DoseInstance = Ix3Dosage['DoseInstance'][number];

/** What only the first Dosage says of the whole prescription: when needed, and the route. */
export interface FirstDosage {
  asNeededBoolean?: boolean;
  route?: { coding?: { code: string }[]; text?: string };
}

const nonEmpty = <T extends object>(o: T): T | undefined => (Object.keys(o).length === 0 ? undefined : o);

function bounds(d: Ix3Dosage, zone: string) {
  const period = nonEmpty(fhirOnly({ start: fhirDateTime(d.DoseStart?.StartDate, zone), end: fhirDateTime(d.DoseEnd?.EndDate, zone) }));
  if (period !== undefined) return { boundsPeriod: period };
  const duration = d.DoseEnd?.EndDuration;
  return { boundsDuration: duration === undefined ? undefined : nonEmpty(fhirOnly({ ...fhirQuantityValue(duration.length), unit: duration.TimeType })) };
}

/** A DoseTime's time of day, `hh:mm:ss`: only its time counts (the inbound dates it by the dosage's start). */
const timeOfDay = (i: DoseInstance): string[] => {
  const v = i.DoseTime?.value;
  return v === undefined || !/^\d{14}$/.test(v) ? [] : [`${v.slice(8, 10)}:${v.slice(10, 12)}:${v.slice(12, 14)}`];
};

function repeat(d: Ix3Dosage, zone: string) {
  const frequency = d.NoOfAdminTimes !== undefined && d.NoOfAdminTimes >= 1 ? d.NoOfAdminTimes : undefined;
  const period = d.RepetitionLength !== undefined && d.RepetitionLength >= 0 ? d.RepetitionLength : undefined;
  return nonEmpty(fhirOnly({
    ...bounds(d, zone),
    frequency,
    period,
    // R4 requires a unit with a period (tim-2); the layout's repetition is counted in days, as its dose times are times of a day.
    periodUnit: period === undefined ? undefined : 'd',
    timeOfDay: d.DoseInstance.flatMap(timeOfDay),
  }));
}

/** The first dose's quantities: one quantity where the least and the most are the same, else a range. */
function doseAndRate(first: DoseInstance | undefined) {
  if (first === undefined) return undefined;
  const quantity = (value: string | undefined) => nonEmpty(fhirOnly({ ...fhirQuantityValue(value), unit: first.Type }));
  if (first.MinQty === first.MaxQty) {
    const dose = quantity(first.MinQty);
    return dose === undefined ? undefined : [{ doseQuantity: dose }];
  }
  const range = nonEmpty(fhirOnly({ low: quantity(first.MinQty), high: quantity(first.MaxQty) }));
  return range === undefined ? undefined : [{ doseRange: range }];
}

export function dosageOf(d: Ix3Dosage, first: FirstDosage, zone: string) {
  const repeated = repeat(d, zone);
  return fhirOnly({
    sequence: d.DosageOrder,
    text: d.DosageText,
    timing: repeated === undefined ? undefined : { repeat: repeated },
    ...first,
    doseAndRate: doseAndRate(d.DoseInstance[0]),
  });
}
