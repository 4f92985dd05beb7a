import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { RecordsRead } from '../../domain/operations/operation.js';
import { OPERATIONS, type OperationName, type ReadName } from '../../domain/operations/table.js';
import { timeRangeFrom } from '../../domain/time/time-range.js';
import { UNBOUNDED_ANSWER_MEMORY } from '../../ports/answer-memory.port.js';
import { ApiError } from '../api-error.js';
import { named } from '../openapi/schema-names.js';
import { operationOf } from '../operation-of.js';
import { accessFor, targetPatientOf } from '../request-patient.js';
import { noteWithheld } from '../release-header.js';
import { SlicedJsonSerializer } from '../serialization/sliced-json.js';
import type { RouteKind } from './route-parts.js';

const JSON_UTF8 = 'application/json; charset=utf-8';

const readOf = (name: OperationName): RecordsRead => {
  const op = OPERATIONS[name];
  if (op.handler !== 'records') throw new Error(`${name} is not a read of patient records`);
  return op;
};

const answerSchema = (read: RecordsRead): TSchema =>
  Type.Array(named(read.answer.item, read.answer.schemaName), read.answer.maxItems === undefined ? {} : { maxItems: read.answer.maxItems });

interface OwnQuery {
  query: Record<string, string | undefined>;
  /** What the caller called each parameter given by the vendor's name, by the operation's own name. */
  sentAs: Record<string, string>;
}

/**
 * The query with the vendor's names of parameters (on its paths) read as the operation's own; one
 * bound given in both forms is refused, since the two may disagree.
 */
function ownNames(query: Record<string, string | undefined>, names: Readonly<Record<string, string>> | undefined): OwnQuery {
  const own = { ...query };
  const sentAs: Record<string, string> = {};
  for (const [vendorName, name] of Object.entries(names ?? {})) {
    const value = query[vendorName];
    if (value === undefined) continue;
    if (query[name] !== undefined) {
      throw new ApiError(400, `Query parameters ${vendorName} and ${name} are the same bound: give it once, as either ${name} or ${vendorName}.`);
    }
    own[name] = value;
    sentAs[name] = vendorName;
  }
  return { query: own, sentAs };
}

/**
 * Every read of patient records, one way: who, for whom, which interval; the read's policy does
 * the rest in the use case. Answers are serialised by the read's own schema, in slices (a journal
 * can be megabytes), and sent as the pieces that come out (serialization/json-answer.ts).
 */
export const recordsRoute: RouteKind = (route, deps) => {
  const serializers = new Map(route.operations.map((name) => [name, new SlicedJsonSerializer(readOf(name).answer.item, readOf(name).answer.bulk)]));
  const answers = route.operations.map((name) => answerSchema(readOf(name)));
  const memory = deps.answerMemory ?? UNBOUNDED_ANSWER_MEMORY;
  return {
    ok: answers.length === 1 ? answers[0] : Type.Union(answers),
    okSentAsBytes: true,
    handle: async (request, reply) => {
      const read = operationOf(request) as ReadName;
      const { query, sentAs } = ownNames(request.query as Record<string, string | undefined>, OPERATIONS[read].vendorQueryNames);
      const patientId = targetPatientOf(request, deps.accessPolicy);
      // A bad bound is named as the caller sent it (the vendor's startActionDateTime, say).
      const range = timeRangeFrom(query.fromDateTime, query.toDateTime, deps.zone, {
        from: sentAs.fromDateTime ?? 'fromDateTime', to: sentAs.toDateTime ?? 'toDateTime',
      });
      const access = await accessFor(request, deps.accessPolicy, patientId);
      const serializer = serializers.get(read) as SlicedJsonSerializer;
      // The records' memory is counted until they are bytes (ports/answer-memory.port.ts).
      const { answer, withheld } = await memory.answering({ read, patientId }, request.signal, async () => {
        const { records, withheld } = await deps.readPatientData.execute(read, access, range);
        // A large answer was just selected, sorted and released in one go: serialising it starts on a turn of its own.
        if (serializer.isLarge(records)) await nextTurn();
        // Already bytes in the 200 schema's shape: sent as they are, not serialised again.
        return { answer: await serializer.serialise(records), withheld };
      });
      // Refused before anything of it is handed to the connection, so a refusal holds nothing.
      deps.largeAnswers?.admit(answer.byteLength, reply.raw);
      noteWithheld(request, reply, withheld);
      const untyped: FastifyReply = reply;
      // Its length is known, so a streamed answer goes out with Content-Length like any other.
      return untyped.type(JSON_UTF8).header('content-length', answer.byteLength).send(answer.body());
    },
  };
};
