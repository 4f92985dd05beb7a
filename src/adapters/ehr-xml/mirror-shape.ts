/**
 * The reading of a mirror document (docs/upstream-ehr.md#3-documents, "Mirror documents": the vendor's JSON layout
 * written as XML) derived from the answer's own typebox schema, so no document needs a table and
 * the reader can only produce what the answer's schema describes. The rule, for every object:
 * - each member is a child element, or for a typed leaf also an attribute, of the same local name;
 *   both at once is a repeated member, refused as a repeated element is;
 * - an array member is that element repeated, always an array (`[]` when absent);
 * - an object whose only member is an array is the layout's wrapper: always there, `[]` inside;
 * - leaves are text; `boolean`, `integer` and `number` convert strictly; a string with a pattern
 *   must match it (a TS `value`: a valid 14-digit time or 8-digit date); `$self` takes the
 *   element's own text beside its attributes or children;
 * - an object without any member in the document is absent; unknown members are ignored;
 * - a recursive member (`Type.Cyclic`, a diagnosis within a diagnosis) is read to any depth.
 * The same compiled shape drives the single-pass reader and the reference walk (document.ts).
 */
import { isCompactDate, isCompactDateTime } from '../../domain/time/local-time.js';
import { COMPACT_TIME_PATTERN } from '../../domain/records/vendor-types.js';
import { BOOL, INTEGER, NUMBER, STR, textOf } from './leaves.js';
import { malformed } from './malformed-document-error.js';
import { field, lazy, leaf, many, obj, SELF, wrapper, type FieldSpec, type Lazy, type Leaf, type ObjectShape, type Shape } from './shape.js';

/** The parts of a JSON schema (as typebox builds it) that a mirror layout uses. */
export interface LayoutSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, LayoutSchema>>;
  readonly items?: LayoutSchema;
  readonly pattern?: string;
  /** A recursive member (`Type.Cyclic`): its definitions, and the one this schema is. */
  readonly $defs?: Readonly<Record<string, LayoutSchema>>;
  readonly $ref?: string;
}

/** The definitions of the recursive members met so far, by id (ids are unique across the answers). */
const definitions = new Map<string, LayoutSchema>();

/** A recursive member is read lazily, so its shape can hold itself (a diagnosis within a diagnosis). */
function resolved(schema: LayoutSchema): LayoutSchema | Lazy {
  for (const [id, definition] of Object.entries(schema.$defs ?? {})) definitions.set(id, definition);
  if (schema.$ref === undefined) return schema;
  const id = schema.$ref;
  const target = definitions.get(id);
  if (target === undefined) throw new TypeError(`mirror layout: no definition of ${id}`);
  return lazy(() => mirrorShape(target));
}

const COMPACT_TIME: Leaf = leaf((raw, name) => {
  const t = textOf(raw, name);
  if (t === undefined) return undefined;
  if (!isCompactDateTime(t) && !isCompactDate(t)) throw malformed(`bad time value in ${name}`);
  return t;
});

function patterned(pattern: string): Leaf {
  if (pattern === COMPACT_TIME_PATTERN) return COMPACT_TIME;
  const re = new RegExp(pattern, 'u');
  return leaf((raw, name) => {
    const t = textOf(raw, name);
    if (t !== undefined && !re.test(t)) throw malformed(`bad ${name}`);
    return t;
  });
}

function leafOf(schema: LayoutSchema, name: string): Leaf {
  switch (schema.type) {
    case 'boolean': return BOOL;
    case 'integer': return INTEGER;
    case 'number': return NUMBER;
    case 'string': return schema.pattern === undefined ? STR : patterned(schema.pattern);
    default: throw new TypeError(`mirror layout member ${name}: objects, arrays and typed leaves only`);
  }
}

const isWrapper = (schema: LayoutSchema): boolean => {
  const members = Object.values(schema.properties ?? {});
  return members.length === 1 && members[0]?.type === 'array';
};

const shapes = new WeakMap<LayoutSchema, ObjectShape>();

function shapeOf(schema: LayoutSchema, name: string): Shape {
  const target = resolved(schema);
  if ('kind' in target) return target;
  return target.type === 'object' ? mirrorShape(target) : leafOf(target, name);
}

/** The fields of an object of the layout; `omit` leaves members out (those the document carries otherwise). */
export function mirrorFields(schema: LayoutSchema, omit: readonly string[] = []): Record<string, FieldSpec> {
  const fields: Record<string, FieldSpec> = {};
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    if (omit.includes(name)) continue;
    if (name === SELF) {
      fields[SELF] = leafOf(member, name);
    } else if (member.type === 'array') {
      if (member.items === undefined) throw new TypeError(`mirror layout member ${name}: an array without items`);
      fields[name] = many(shapeOf(member.items, name));
    } else if (member.type === 'object') {
      fields[name] = isWrapper(member) ? wrapper(mirrorShape(member)) : mirrorShape(member);
    } else {
      fields[name] = field(leafOf(member, name), { attribute: true });
    }
  }
  return fields;
}

/** The shape of an object of the layout (one per schema object, so shared parts compile once). */
export function mirrorShape(schema: LayoutSchema): ObjectShape {
  let shape = shapes.get(schema);
  if (shape === undefined) {
    shape = obj(mirrorFields(schema), { absentWhenEmpty: true });
    shapes.set(schema, shape);
  }
  return shape;
}
