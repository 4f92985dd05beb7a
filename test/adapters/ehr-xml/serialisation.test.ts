/**
 * The response schemas against what the mapper really produces: fast-json-stringify (fastify's
 * serialiser) must write every mapped field (the schema lists them all), must not fail on a missing
 * required one, and must drop anything unlisted. The recursive ArchetypeRecord is the hard case.
 */
import fastJson from 'fast-json-stringify';
import Fastify from 'fastify';
import { Type, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { mapDocument, mapResultRecord } from '../../../src/adapters/ehr-xml/index.js';
import {
  AttentionSignalSchema, BookedAppointmentsResultSchema, CareContactSchema, JournalNoteRecordSchema, PatientRecordSchema,
  PatientV2Schema, PrescriptionRecordSchema, ResultRecordSchema, VideoMeetingSchema,
} from '../../../src/domain/records/index.js';
import type { DocumentKind } from '../../../src/adapters/ehr-xml/documents.js';
import { edit, example, PATIENT, ZONE } from './fixtures.js';

const KINDS: [DocumentKind, string, TSchema][] = [
  ['patient', 'patient.xml', PatientRecordSchema],
  ['patient-v2', 'patient-v2.xml', PatientV2Schema],
  ['medications', 'medications.xml', PrescriptionRecordSchema],
  ['journalnotes', 'journalnotes.xml', JournalNoteRecordSchema],
  ['bookings', 'bookings.xml', BookedAppointmentsResultSchema],
  ['videomeetings', 'videomeetings.xml', VideoMeetingSchema],
  ['contacts', 'contacts.xml', CareContactSchema],
  ['attentionsignals', 'attentionsignals.xml', AttentionSignalSchema],
];

describe('response schemas serialise the mapped examples exactly', () => {
  for (const [kind, file, schema] of KINDS) {
    it(kind, () => {
      const mapped = mapDocument(kind, example(file), { zone: ZONE, expectedPatientId: PATIENT });
      const stringify = fastJson(Type.Array(schema));
      expect(JSON.parse(stringify(mapped))).toEqual(mapped);
      expect(Value.Check(Type.Array(schema), mapped)).toBe(true);
    });
  }

  it('the result record', () => {
    const { resultCode, reasonCode, comment } = mapResultRecord(example('result-ok.xml'));
    const record = { ResultCode: resultCode, Comment: comment, Any: [{ ReasonCode: reasonCode }] };
    expect(JSON.parse(fastJson(ResultRecordSchema)(record))).toEqual(record);
  });
});

describe('the recursive ArchetypeRecord', () => {
  it('keeps the four nested levels and drops unlisted fields at every depth', () => {
    const mapped = mapDocument('journalnotes', example('journalnotes.xml'), { zone: ZONE });
    const record = mapped[0]?.JournalNoteEHRExtract[0]?.Note?.Records.Record[2];
    const deepest = record?.OtherValue.ArchetypeRecords.ArchetypeRecord[0]?.ArchetypeRecord[0]?.ArchetypeRecord[0]?.ArchetypeRecord[0];
    expect(deepest?.Name).toBe('Systoliskt');
    Object.assign(deepest ?? {}, { leaked: '191212121212' });
    Object.assign(mapped[0] ?? {}, { leaked: 'top' });
    const out = fastJson(Type.Array(JournalNoteRecordSchema))(mapped);
    expect(out).toContain('"Magnitude":"084"');
    expect(out).toContain('"Name":"Systoliskt"');
    expect(out).not.toContain('leaked');
  });

  it('issue 13: keeps a nested journal Record and its values\' text, and drops unlisted fields in it', () => {
    const mapped = mapDocument('journalnotes', example('journalnotes.xml'), { zone: ZONE });
    const nested = mapped[0]?.JournalNoteEHRExtract[0]?.Note?.Records.Record[4]?.Record?.Record;
    expect(nested?.Keyword).toBe('Åtgärd');
    Object.assign(nested ?? {}, { leaked: '191212121212' });
    Object.assign(nested?.Value[0] ?? {}, { leaked: 'value' });
    const out = fastJson(Type.Array(JournalNoteRecordSchema))(mapped);
    expect(out).toContain('"Keyword":"Åtgärd"');
    expect(out).toContain('"$self":"Ingen antibiotika');
    expect(out).not.toContain('leaked');
  });

  it('serialises a 50-level nesting through a fastify route', async () => {
    const open = '<ArchetypeRecord><Name>n</Name>'.repeat(50);
    const xml = edit(example('journalnotes.xml'), '<Keyword>Anamnes</Keyword>',
      `<Keyword>Anamnes</Keyword><OtherValue><ArchetypeRecords>${open}${'</ArchetypeRecord>'.repeat(50)}</ArchetypeRecords></OtherValue>`);
    const mapped = mapDocument('journalnotes', xml, { zone: ZONE });
    const app = Fastify();
    app.get('/journalnotes', { schema: { response: { 200: Type.Array(JournalNoteRecordSchema) } } }, async () => mapped);
    try {
      const res = await app.inject({ method: 'GET', url: '/journalnotes' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(JSON.parse(JSON.stringify(mapped)));
      expect(res.body.match(/"Name":"n"/g)).toHaveLength(50);
    } finally {
      await app.close();
    }
  });
});

describe('issue 13: the vendor-layout answers keep only what their schemas name', () => {
  it('drops members an answer does not name, at every depth of a mirror answer', () => {
    for (const [kind, file, schema] of [
      ['contacts', 'contacts.xml', CareContactSchema], ['attentionsignals', 'attentionsignals.xml', AttentionSignalSchema],
      ['patient-v2', 'patient-v2.xml', PatientV2Schema],
    ] as const) {
      const mapped = mapDocument(kind, example(file), { zone: ZONE }) as unknown as Record<string, unknown>[];
      const leak = (o: unknown): void => {
        if (Array.isArray(o)) o.forEach(leak);
        else if (typeof o === 'object' && o !== null) {
          Object.values(o).forEach(leak);
          Object.assign(o, { leaked: '191212121212' });
        }
      };
      const clean = JSON.parse(JSON.stringify(mapped)) as unknown;
      leak(mapped);
      const out = fastJson(Type.Array(schema))(mapped);
      expect([kind, out.includes('leaked')]).toEqual([kind, false]);
      expect([kind, JSON.parse(out) as unknown]).toEqual([kind, clean]);
    }
  });
});

describe('video meeting bounds are in the schema', () => {
  it('refuses, in validation, what the mapper never produces', () => {
    const [meeting] = mapDocument('videomeetings', example('videomeetings.xml'), { zone: ZONE });
    expect(Value.Check(VideoMeetingSchema, meeting)).toBe(true);
    expect(Value.Check(VideoMeetingSchema, { ...meeting, meetingLink: 'x'.repeat(65) })).toBe(false);
    expect(Value.Check(VideoMeetingSchema, { ...meeting, actionId: -1 })).toBe(false);
    expect(Value.Check(VideoMeetingSchema, { ...meeting, startDateTimeInUnix: 10_000_000_000_000 })).toBe(false);
    expect(Value.Check(VideoMeetingSchema, { ...meeting, otherStaffList: Array.from({ length: 33 }, () => ({})) })).toBe(false);
  });
});
