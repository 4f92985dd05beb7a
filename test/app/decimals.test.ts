/**
 * The patient app shows a lab value with the digits the API wrote (app/src/decimals.ts): a parse that
 * kept only the number would show `4.0` as `4` and `5.10` as `5.1`.
 */
import { describe, expect, it } from 'vitest';
import { parseKeepingDecimals } from '../../app/src/decimals.js';
import { decimal } from '../../app/src/format.js';

describe('the patient app keeps a decimal as written', () => {
  it('keeps each numeric value\'s source text beside it, and writes it with the reader\'s decimal mark', () => {
    const parsed = parseKeepingDecimals('{"entry":[{"resource":{"valueQuantity":{"value":4.0,"unit":"mmol/L"}}},{"resource":{"valueQuantity":{"value":5.10,"comparator":"<"}}}]}') as
      { entry: { resource: { valueQuantity: { value: number; valueText: string } } }[] };
    expect(parsed.entry.map((e) => e.resource.valueQuantity)).toEqual([
      { value: 4, valueText: '4.0', unit: 'mmol/L' }, { value: 5.1, valueText: '5.10', comparator: '<' },
    ]);
    expect([decimal('4.0', 'sv'), decimal('5.10', 'en')]).toEqual(['4,0', '5.10']);
  });
});
