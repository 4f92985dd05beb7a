/** AttentionSignals (ns urn:example:ehr:attentionsignal:1) -> AttentionSignal[] (v2 camelCase). */
import type { AttentionSignal } from '../../domain/records/index.js';
import { documentType, reading } from './document.js';
import { STR } from './leaves.js';
import { as, many, obj, req } from './shape.js';
import { codeList, UNIX_MS } from './v2-leaves.js';

// OVRIGT maps to `other` like any code not listed.
const SIGNAL_TYPES = new Map([
  ['OVERKANSLIGHET', 'hypersensitivity'], ['SMITTA', 'infection'], ['BEHANDLING', 'treatment'], ['TILLSTAND', 'condition'],
]);

const ATTENTION_SIGNAL = obj({
  SignalId: req(STR, 'signalId'),
  SignalType: req(codeList(SIGNAL_TYPES, 'other'), 'signalType'),
  Description: req(STR, 'description'),
  Severity: as('severity', STR),
  RegisteredDateTime: req(UNIX_MS, 'registeredDateTimeInUnix'),
  ValidFrom: as('validFromInUnix', UNIX_MS),
  ValidTo: as('validToInUnix', UNIX_MS),
  PerformingUnitName: req(STR, 'performingUnitName'),
});

const DOCUMENT = documentType('AttentionSignals', obj({ AttentionSignal: many(ATTENTION_SIGNAL) }));

export const attentionSignalsReading = reading(DOCUMENT, (root) => root.AttentionSignal as AttentionSignal[]);
