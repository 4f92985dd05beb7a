/**
 * AttentionSignalEHRExtracts (ns urn:example:ehr:attentionsignal:2), a mirror of the vendor's attention
 * signals -> AttentionSignal[]; the root's `@version` becomes XSDVersion.version.
 */
import { AttentionSignalSchema, type AttentionSignal } from '../../domain/records/index.js';
import { mirrorReading } from './mirror-document.js';

export const attentionSignalsReading = mirrorReading<AttentionSignal>('AttentionSignalEHRExtracts', AttentionSignalSchema, {
  versionMember: 'XSDVersion',
});
