/**
 * The conformance kit's table: one row per check, its result and a detail a person can act on.
 * Details are this service's own words (a type and a parameter, a count, a member path), never an
 * identity number other than the test patient's, never a token, never the server's text.
 */
export type CheckResult = 'PASS' | 'FAIL' | 'WARN' | 'SKIP';

export interface CheckRow {
  check: string;
  result: CheckResult;
  detail: string;
}

export const row = (check: string, result: CheckResult, detail: string): CheckRow => ({ check, result, detail });

export const failed = (rows: readonly CheckRow[]): boolean => rows.some((r) => r.result === 'FAIL');

const MAX_DETAIL = 160;
/** A control character (an ESC would drive the operator's terminal): none is meant to be in a detail, and none is printed. */
const CONTROL = /\p{Cc}/gu;

/** The rows as a plain-text table, widths fitted to the contents, then a one-line verdict. */
export function formatTable(rows: readonly CheckRow[]): string {
  const header: CheckRow = { check: 'check', result: 'result' as CheckResult, detail: 'detail' };
  const cut = (text: string) => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text).replace(/\s+/g, ' ').replace(CONTROL, '?');
  const all = [header, ...rows].map((r) => ({ ...r, detail: cut(r.detail) }));
  const w1 = Math.max(...all.map((r) => r.check.length));
  const w2 = Math.max(...all.map((r) => r.result.length));
  const line = (r: CheckRow) => `${r.check.padEnd(w1)}  ${r.result.padEnd(w2)}  ${r.detail}`.trimEnd();
  const counts = (['PASS', 'FAIL', 'WARN', 'SKIP'] as const).map((k) => `${rows.filter((r) => r.result === k).length} ${k}`).join(', ');
  return [line(all[0] as CheckRow), `${'-'.repeat(w1)}  ${'-'.repeat(w2)}  ${'-'.repeat(6)}`, ...all.slice(1).map(line), '',
    `${failed(rows) ? 'NOT CONFORMANT' : 'CONFORMANT'}: ${counts}`].join('\n');
}
