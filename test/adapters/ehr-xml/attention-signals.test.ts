import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, ZONE } from './fixtures.js';

const map = (xml: string) => mapDocument('attentionsignals', xml, { zone: ZONE });
const base = example('attentionsignals.xml');

describe('AttentionSignals example', () => {
  const signals = map(base);

  it('maps every signal in document order, field by field', () => {
    expect(signals).toEqual([
      {
        signalId: 'AS-000101', signalType: 'hypersensitivity', description: 'Penicillin \u2013 anafylaktisk reaktion 2019',
        severity: 'Livshotande', registeredDateTimeInUnix: Date.UTC(2019, 10, 5, 13, 22, 33),
        validFromInUnix: Date.UTC(2019, 10, 4, 23, 0), performingUnitName: 'Akutmottagningen Exempelsjukhuset',
      },
      {
        signalId: 'AS-000187', signalType: 'infection', description: 'MRSA-bärare, isoleringsrutin & basala hygienrutiner',
        registeredDateTimeInUnix: 1729989000000,
        validFromInUnix: Date.UTC(2024, 9, 26, 22, 0), validToInUnix: Date.UTC(2025, 9, 27, 22, 59, 59),
        performingUnitName: '23',
      },
      {
        signalId: 'AS-000102', signalType: 'treatment',
        description: 'Antikoagulantia (warfarin) – PK(INR) mål 2,0–3,0; <blödningsrisk>',
        severity: 'Skadlig', registeredDateTimeInUnix: Date.UTC(2020, 0, 14, 8, 15), performingUnitName: 'Vårdcentralen Tolvstad',
      },
      {
        signalId: 'AS-000103', signalType: 'condition', description: 'Diabetes mellitus typ 1', severity: 'Besvärande',
        registeredDateTimeInUnix: Date.UTC(2018, 2, 2, 10, 0), validFromInUnix: Date.UTC(2018, 2, 1, 23, 0),
        performingUnitName: 'Vårdcentralen Tolvstad',
      },
      {
        signalId: 'AS-000190', signalType: 'other', description: 'Ej HLR enligt beslut 2025-01-20, se journal',
        registeredDateTimeInUnix: Date.UTC(2025, 0, 20, 15, 5), validFromInUnix: Date.UTC(2025, 0, 19, 23, 0),
        performingUnitName: 'Geriatriska kliniken Exempelsjukhuset',
      },
    ]);
  });

  it('reads the repeated autumn hour as the earlier, summer-time instant', () => {
    expect(signals[1]?.registeredDateTimeInUnix).toBe(Date.UTC(2024, 9, 27, 0, 30));
  });

  it('leaves out the empty ValidTo and Severity', () => {
    expect(signals[0]).not.toHaveProperty('validToInUnix');
    expect(signals[1]).not.toHaveProperty('severity');
  });
});

describe('AttentionSignals codes', () => {
  it('maps OVRIGT to other', () => {
    expect(map(edit(base, '<SignalType>VARDBEGRANSNING</SignalType>', '<SignalType>OVRIGT</SignalType>'))[4]?.signalType).toBe('other');
  });

  it('refuses a signal without SignalType', () => {
    expect(() => map(edit(base, '<SignalType>SMITTA</SignalType>', ''))).toThrow('missing SignalType');
  });

  it('reads a time in the spring gap an hour later', () => {
    const xml = edit(base, '<RegisteredDateTime value="20250120160500"/>', '<RegisteredDateTime value="20250330023000"/>');
    expect(map(xml)[4]?.registeredDateTimeInUnix).toBe(Date.UTC(2025, 2, 30, 1, 30));
  });
});
