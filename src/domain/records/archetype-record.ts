/**
 * ArchetypeRecord nests itself to any depth. `Type.Cyclic` emits `$defs` + `$id` + `$ref`, which
 * fast-json-stringify resolves, so the response schema stays exact instead of being cut at a
 * fixed depth. The `$id` is namespaced so that it cannot clash with a schema added elsewhere.
 */
import { Type, type Static } from 'typebox';
import { OptStr, TimeValueSchema } from './common.js';

export const ARCHETYPE_RECORD_ID = 'pdas.JournalNote.ArchetypeRecord';

export const ArchetypeRecordSchema = Type.Cyclic({
  [ARCHETYPE_RECORD_ID]: Type.Object({
    ArchetypeId: OptStr,
    Name: OptStr,
    EventDateTime: Type.Optional(Type.Object({
      startDateTime: Type.Optional(TimeValueSchema),
      endDateTime: Type.Optional(TimeValueSchema),
    })),
    DataType: OptStr,
    Magnitude: OptStr,
    Unit: OptStr,
    Range: OptStr,
    ArchetypeRecord: Type.Array(Type.Ref(ARCHETYPE_RECORD_ID)),
  }),
}, ARCHETYPE_RECORD_ID);

/** Leaf values are text, never numbers: "37.8", "084", "<140". */
export type ArchetypeRecord = Static<typeof ArchetypeRecordSchema>;
