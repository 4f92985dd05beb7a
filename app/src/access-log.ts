/**
 * The access log ("who read my record") from the patient's AuditEvents (docs/fhir-api.md#the-same-rules-as-the-cos-api),
 * newest first, to the second (several reads of one visit share a minute), in the words the service's own log uses.
 */
import { table } from './dom.js';
import type { AuditEvent, Resource } from './fhir-types.js';
import { when } from './format.js';
import { BASIS_NAMES, LABELS, OPERATION_NAMES, OUTCOME_NAMES, TITLES, type Lang } from './i18n.js';

const OPERATION_SYSTEM = 'urn:patient-data-access:operation';

function who(e: AuditEvent, lang: Lang): string {
  const person = e.agent?.find((a) => a.requestor === true);
  const basis = person?.type?.text;
  const name = BASIS_NAMES.find((b) => b.en === basis)?.[lang] ?? basis ?? '?';
  const id = person?.who?.identifier?.value;
  return basis === BASIS_NAMES[0]?.en || id === undefined ? name : `${name} (${id})`;
}

function what(e: AuditEvent, lang: Lang): string {
  const op = e.subtype?.find((s) => s.system === OPERATION_SYSTEM);
  return (op?.code === undefined ? undefined : OPERATION_NAMES[op.code]?.[lang]) ?? op?.display ?? '?';
}

export function accessLog(found: readonly Resource[], lang: Lang): HTMLElement {
  const events = found.filter((r): r is AuditEvent => r.resourceType === 'AuditEvent')
    .sort((a, b) => (Date.parse(b.recorded ?? '') || 0) - (Date.parse(a.recorded ?? '') || 0));
  const rows = events.map((e) => [
    when(e.recorded, lang, true) ?? '', who(e, lang), e.agent?.find((a) => a.requestor !== true)?.who?.display ?? '',
    what(e, lang), OUTCOME_NAMES[e.outcome ?? '']?.[lang] ?? e.outcome ?? '',
  ]);
  // Five columns do not fit a phone: there each access is a block of its own (stacked).
  return table(`${TITLES.accessLog[lang]}: ${LABELS.table[lang]}`, undefined,
    [LABELS.when[lang], LABELS.who[lang], LABELS.application[lang], LABELS.what[lang], LABELS.outcome[lang]], rows, true);
}
