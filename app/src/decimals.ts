/**
 * A lab value reaches the patient as the laboratory wrote it: `4.0` is not `4`, `5.10` not `5.1`.
 * JSON.parse turns a decimal into a number and drops those digits, so the lab results are parsed
 * here with the source text of each `value` kept beside it (JSON.parse source text access, in every
 * current browser; load.ts fetches them).
 */

type Reviver = (this: Record<string, unknown>, key: string, value: unknown, context?: { source?: string }) => unknown;

/** JSON with each numeric `value` also as `valueText`, its digits as written. */
export function parseKeepingDecimals(text: string): unknown {
  const keep: Reviver = function keep(key, value, context) {
    if (key === 'value' && typeof value === 'number' && context?.source !== undefined) this.valueText = context.source;
    return value;
  };
  return JSON.parse(text, keep as (this: unknown, key: string, value: unknown) => unknown);
}
