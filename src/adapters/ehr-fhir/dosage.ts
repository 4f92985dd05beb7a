/**
 * One FHIR Dosage as the prescription layout's IX3Dosage (docs/upstream-fhir.md#39-medications-operation-9):
 * its text and order, how often, from and to when, and one DoseInstance per time of day. Quantities
 * are copied as written (`0.5` stays `0.5`, `1.0` stays `1.0`).
 */
import type { Static } from 'typebox';
import type { Ix3DosageSchema } from '../../domain/records/prescription-parts.js';
import { definedOnly } from '../../domain/records/defined.js';
import { compactOf, ts } from './fhir-time.js';
import { valueAsWritten } from './rendered-value.js';
import type { MapContext } from './map-context.js';
import type { Dosage } from '../../reads/medications/resource-types.js';

export { valueAsWritten };

type Ix3Dosage = Static<typeof Ix3DosageSchema>;
type DoseInstance = Ix3Dosage['DoseInstance'][number];

function doseInstances(dosage: Dosage, ctx: MapContext): DoseInstance[] {
  const repeat = dosage.timing?.repeat;
  const startDate = compactOf(repeat?.boundsPeriod?.start, ctx)?.slice(0, 8);
  const dose = dosage.doseAndRate?.[0];
  const min = dose?.doseQuantity ?? dose?.doseRange?.low;
  const max = dose?.doseQuantity ?? dose?.doseRange?.high;
  return (repeat?.timeOfDay ?? []).map((time, i) => definedOnly({
    DoseOrder: i + 1,
    DoseTime: startDate === undefined ? undefined : { value: `${startDate}${time.slice(0, 8).replace(/:/g, '')}` },
    MinQty: valueAsWritten(min),
    MaxQty: valueAsWritten(max),
    Type: min?.unit ?? max?.unit,
  }));
}

export function ix3Dosage(dosage: Dosage, ctx: MapContext): Ix3Dosage {
  const repeat = dosage.timing?.repeat;
  const bounds = repeat?.boundsPeriod;
  const duration = repeat?.boundsDuration;
  const end = definedOnly({
    EndDate: ts(bounds?.end, ctx),
    EndDuration: duration === undefined ? undefined : definedOnly({ length: valueAsWritten(duration), TimeType: duration.unit }),
  });
  return definedOnly({
    DosageText: dosage.text,
    DosageOrder: dosage.sequence,
    NoOfAdminTimes: repeat?.frequency,
    RepetitionLength: repeat?.period !== undefined && Number.isInteger(repeat.period) ? repeat.period : undefined,
    DoseStart: bounds?.start === undefined ? undefined : { StartDate: ts(bounds.start, ctx) },
    DoseEnd: Object.keys(end).length === 0 ? undefined : end,
    DoseInstance: doseInstances(dosage, ctx),
  });
}
