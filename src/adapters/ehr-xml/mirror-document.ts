/**
 * A mirror document (docs/upstream-ehr.md#3-documents): its root holds the repeated extracts of the layout's
 * top-level array item, and the service answers one array element holding them, or `[]` when the
 * root holds none. One generic path for every mirror document, driven by the answer's item schema.
 */
import type { Static, TSchema } from 'typebox';
import { documentType, reading, type Reading } from './document.js';
import { NUMBER } from './leaves.js';
import { mirrorFields, type LayoutSchema } from './mirror-shape.js';
import { obj } from './shape.js';

export interface MirrorOptions {
  /** The item member (an object with `version`) that the root's `@version` fills: attention signals' XSDVersion. */
  versionMember?: string;
}

/** The item's one array member: the extracts. */
function extractsMember(item: LayoutSchema, options: MirrorOptions): string {
  const arrays = Object.entries(item.properties ?? {}).filter(([name, s]) => s.type === 'array' && name !== options.versionMember);
  if (arrays.length !== 1 || arrays[0] === undefined) throw new TypeError('a mirror item holds exactly one array of extracts');
  return arrays[0][0];
}

/** What a mirror reading was made from, kept on it so the differential tests find every mirror document. */
export interface MirrorOrigin {
  root: string;
  item: TSchema;
  versionMember?: string;
}

/** The reading of a mirror document whose answer's item is `schema` (a typebox schema of the vendor's layout). */
export function mirrorReading<S extends TSchema>(root: string, schema: S, options: MirrorOptions = {}): Reading<Static<S>[]> & { mirror: MirrorOrigin } {
  const item = schema as LayoutSchema;
  const extracts = extractsMember(item, options);
  const version = options.versionMember;
  const fields = mirrorFields(item, version === undefined ? [] : [version]);
  if (version !== undefined) fields['@version'] = NUMBER;
  const read = reading(documentType(root, obj(fields)), (content) => {
    const found = content[extracts] as unknown[];
    if (found.length === 0) return [];
    const answer: Record<string, unknown> = { [extracts]: found };
    if (version !== undefined && content.version !== undefined) answer[version] = { version: content.version };
    return [answer as Static<S>];
  });
  return { ...read, mirror: { root, item: schema, ...(version === undefined ? {} : { versionMember: version }) } };
}
