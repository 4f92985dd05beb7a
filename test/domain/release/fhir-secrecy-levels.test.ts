import { describe, expect, it } from 'vitest';
import { levelsFhirNeverSends, V3_CONFIDENTIALITY_CODES } from '../../../src/domain/release/fhir-secrecy-levels.js';

describe('issue 34 item 2: the secrecy levels a FHIR EHR can send (docs/release-policy.md#a-fhir-ehr)', () => {
  it('issue 34 item 2: are the codes of v3-Confidentiality, and a policy naming only those has nothing to refuse', () => {
    expect(V3_CONFIDENTIALITY_CODES).toEqual(['U', 'L', 'M', 'N', 'R', 'V']);
    expect(levelsFhirNeverSends({
      noteSecrecyLevels: { levels: ['R', 'V'] }, contactSecrecyLevels: { levels: ['R'] }, keywordSecrecyLevels: { levels: ['V'] },
    })).toEqual([]);
    expect(levelsFhirNeverSends({})).toEqual([]);
    expect(levelsFhirNeverSends({ unsignedNotes: { withhold: true }, signingDelay: { days: 14 } })).toEqual([]);
  });

  it('issue 34 item 2: names each level rule with the levels FHIR never sends, the XML EHR\'s Sekretess among them', () => {
    expect(levelsFhirNeverSends({
      noteSecrecyLevels: { levels: ['Sekretess', 'R'] },
      keywordSecrecyLevels: { levels: ['Känslig uppgift'] },
      contactSecrecyLevels: { levels: ['R', 'sekretessmarkering', 'restricted'] },
    })).toEqual([
      { rule: 'noteSecrecyLevels', levels: ['Sekretess'] },
      { rule: 'keywordSecrecyLevels', levels: ['Känslig uppgift'] },
      { rule: 'contactSecrecyLevels', levels: ['sekretessmarkering', 'restricted'] },
    ]);
  });

  it('issue 34 item 2: compares as the rule itself does (trimmed, NFC, any case): " r" matches R, so it is not refused', () => {
    expect(levelsFhirNeverSends({ noteSecrecyLevels: { levels: [' r', 'v '] } })).toEqual([]);
    expect(levelsFhirNeverSends({ noteSecrecyLevels: { levels: ['RR', 'R,V'] } })).toEqual([{ rule: 'noteSecrecyLevels', levels: ['RR', 'R,V'] }]);
  });
});
