import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from 'typebox';
import {
  AttentionSignalSchema, BookedAppointmentsResultSchema, CareContactSchema, JournalNoteRecordSchema,
  PrescriptionRecordSchema, VideoMeetingSchema,
} from '../../domain/records/index.js';
import { timeRangeFrom } from '../../domain/time/time-range.js';
import type { ReadKind } from '../../ports/ehr-records.port.js';
import { ApiError } from '../api-error.js';
import { named } from '../openapi/schema-names.js';
import { documented, type DocumentedOperation } from '../openapi/operation-docs.js';
import { accessFor, targetPatientOf } from '../patient-access.js';
import { errorResponses } from '../schemas/errors.js';
import { SlicedJsonSerializer } from '../serialization/sliced-json.js';
import { PatientHeadersSchema, TimeFilterQuerySchema, VersionedTimeFilterQuerySchema } from '../schemas/requests.js';
import { noteWithheld } from '../release-header.js';
import type { ErrorShape } from '../types.js';
import type { RouteDependencies } from './dependencies.js';
import { atSpecAndVendorPath } from './vendor-paths.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

export interface ReadRoute {
  url: string;
  operation: DocumentedOperation;
  kind: Exclude<ReadKind, 'patient'>;
  item: TSchema;
  errorShape: ErrorShape;
  /** Contacts carry `api-version`, whose only version (v2) is also the default. */
  versioned: boolean;
  /** Name of the item's schema in the OpenAPI document. */
  schemaName: string;
  maxItems?: number;
  /** The item's array that can grow large (a record's extracts): serialised element by element. */
  bulk?: string;
}

export const READ_ROUTES: readonly ReadRoute[] = [
  { url: '/patients/appointments/', operation: 'getAppointments', kind: 'bookings', item: BookedAppointmentsResultSchema, errorShape: 'status', versioned: false, schemaName: 'BookedAppointmentsResult' },
  { url: '/patients/contacts/', operation: 'getContacts', kind: 'contacts', item: CareContactSchema, errorShape: 'error', versioned: true, schemaName: 'CareContacts' },
  { url: '/patients/attentionsignals/', operation: 'getAttentionSignals', kind: 'attentionsignals', item: AttentionSignalSchema, errorShape: 'error', versioned: false, schemaName: 'AttentionSignals' },
  { url: '/patients/videomeetings/', operation: 'getVideoMeetings', kind: 'videomeetings', item: VideoMeetingSchema, errorShape: 'error', versioned: false, schemaName: 'VideoMeeting', maxItems: 64 },
  { url: '/patients/medications/', operation: 'getMedications', kind: 'medications', item: PrescriptionRecordSchema, errorShape: 'status', versioned: false, schemaName: 'PrescriptionRecord', bulk: 'PrescriptionEHRExtract' },
  { url: '/patients/journalnotes/', operation: 'getJournalNotes', kind: 'journalnotes', item: JournalNoteRecordSchema, errorShape: 'status', versioned: false, schemaName: 'JournalNoteRecord', bulk: 'JournalNoteEHRExtract' },
];

export function assertApiVersion(value: string | undefined, allowAbsent: string): void {
  if (value !== undefined && value !== 'v2') {
    throw new ApiError(400, `Query parameter api-version must be v2 (supported: v2; absent means ${allowAbsent}).`);
  }
}

/** Six of the seven reads share one shape: who, for whom, which interval; the patient read has its own file. */
export const readRoutes: FastifyPluginAsyncTypebox<RouteDependencies> = async (app, deps) => {
  for (const route of READ_ROUTES) {
    // Answers are serialised by the route's own schemas, in slices (a journal can be megabytes).
    const serializer = new SlicedJsonSerializer(route.item, route.bulk);
    const schema = {
      ...documented(route.operation),
      headers: PatientHeadersSchema,
      querystring: route.versioned ? VersionedTimeFilterQuerySchema : TimeFilterQuerySchema,
      response: {
        200: Type.Array(named(route.item, route.schemaName), route.maxItems === undefined ? {} : { maxItems: route.maxItems }),
        ...errorResponses(route.errorShape),
      },
    };
    for (const at of atSpecAndVendorPath(route.url, schema)) app.get(at.url, {
      config: { operation: route.operation, errorShape: route.errorShape },
      schema: at.schema,
    }, async (request, reply) => {
      const query = request.query as { fromDateTime?: string; toDateTime?: string; 'api-version'?: string };
      if (route.versioned) assertApiVersion(query['api-version'], 'v2');
      const patientId = targetPatientOf(request, deps.accessPolicy);
      const range = timeRangeFrom(query.fromDateTime, query.toDateTime, deps.zone);
      const access = await accessFor(request, deps.accessPolicy, patientId);
      const { records, withheld } = await deps.readPatientData.execute(route.kind, access, range);
      // Already bytes in the 200 schema's shape: sent as they are, not serialised again.
      const body = await serializer.serialise(records);
      noteWithheld(request, reply, withheld);
      const untyped: FastifyReply = reply;
      return untyped.type(JSON_UTF8).send(body);
    });
  }
};
