import { bool, code, id, int, tv } from './ix.js';
import { PRODUCTS, type PrescriptionSpec } from '../../reads/medications/demo-data.js';
import { HSA_ROOT, LOCAL_UNIT_ROOT, UNITS, type UnitKey } from './units.js';
import { el, type XmlElement } from './xml.js';

/** Pieces of a PrescriptionEHRExtract: the Product and UnitRef shapes and the IX3 dosage. */

const ATC_SYSTEM = '2.16.840.1.113883.6.73';

export function product(name: string, key: keyof typeof PRODUCTS): XmlElement {
  const p = PRODUCTS[key];
  return el(name,
    el('PrescriptionProductStrengthNumeric', p.strength),
    el('PrescriptionProductStrengthNumericUnit', p.unit),
    code('PrescriptionProduct_AtcCode', ATC_SYSTEM, p.atc),
    el('PrescriptionProductTradeName', p.tradeName),
    id('PrescriptionProductNplID', p.nplId, '1.2.752.129.2.1.5.1'),
    el('PrescriptionProductDrugFormTextSv', p.form));
}

export const unitRef = (name: string, key: UnitKey): XmlElement => el(name,
  id('UnitID', UNITS[key].hsaId, HSA_ROOT), el('UnitInternalID', UNITS[key].internalId),
  id('UnitLocalID', UNITS[key].localId, LOCAL_UNIT_ROOT));

export function dosage(spec: PrescriptionSpec, start: string, end: string | undefined): XmlElement {
  const day = start.slice(0, 8);
  return el('IX3Dosage',
    el('WholeWhenNeeded', bool(spec.whenNeeded)),
    el('Continuous', bool(spec.durationDays === undefined && !spec.whenNeeded)),
    el('Conditional', bool(spec.conditionalText !== undefined)),
    el('ExtraDose', bool(spec.whenNeeded)),
    el('NoOfAdminTimes', int(spec.doses.length)),
    el('DosageOrder', int(1)),
    el('RepetitionLength', int(1)),
    spec.conditionalText === undefined ? el('ConditionalText') : el('ConditionalText', spec.conditionalText),
    el('DosageText', spec.dosageText),
    el('DosageShortText', spec.dosageShort),
    el('DosageType', spec.whenNeeded ? 'VID_BEHOV' : 'DAGLIG'),
    el('DoseDistributionType', spec.doses.every((d) => d.time) ? 'FASTA_TIDER' : 'UTAN_TIDER'),
    end !== undefined && el('DoseEnd',
      el('DoseEndType', 'DURATION'),
      el('EndDuration', el('length', String(spec.durationDays)), el('TimeType', 'DAY')),
      tv('EndDate', end)),
    el('DoseStart', el('DoseStartType', 'DATE'), tv('StartDate', start)),
    spec.doses.map((d, i) => el('DoseInstance',
      el('MaxQty', d.max), el('MinQty', d.min), el('Type', d.unit),
      el('DaysFromDosageStart', int(0)), el('DoseOrder', int(i + 1)),
      el('OneOff', 'false'), el('Conditional', bool(d.time === undefined)),
      d.time !== undefined && tv('DoseTime', `${day}${d.time}00`))));
}

