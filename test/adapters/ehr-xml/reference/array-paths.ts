/**
 * The element paths that repeat (`*`) in one document type, precomputed from its compiled shape.
 * A recursive shape (ArchetypeRecord in ArchetypeRecord) repeats a path segment without bound; it
 * is kept as a rule: strip the repeated segments, then look the path up like any other.
 */
import type { CompiledObject } from '../../../../src/adapters/ehr-xml/shape.js';

/** `segment` leads from `base` back to the object at `base`; `many`: its last element repeats. */
interface Recursion { base: string; segment: string; many: boolean }

export interface ArrayPaths {
  has(path: string): boolean;
}

export function arrayPaths(root: string, shape: CompiledObject): ArrayPaths {
  const exact = new Set<string>();
  const recursions: Recursion[] = [];
  const onPath = new Map<CompiledObject, string>();

  const collect = (object: CompiledObject, path: string): void => {
    onPath.set(object, path);
    for (const f of object.fields) {
      if (f.isAttribute) continue;
      const p = `${path}.${f.name}`;
      if (f.options.many) exact.add(p);
      if (!f.object) continue;
      const base = onPath.get(f.object);
      if (base === undefined) collect(f.object, p);
      else recursions.push({ base, segment: p.slice(base.length), many: f.options.many === true });
    }
    onPath.delete(object);
  };
  collect(shape, root);

  return {
    has(path: string): boolean {
      if (exact.has(path)) return true;
      for (const recursion of recursions) {
        const { base, segment } = recursion;
        if (!path.startsWith(base)) continue;
        let rest = path.slice(base.length);
        let stripped = false;
        while (rest === segment || rest.startsWith(`${segment}.`)) {
          // The recursive element itself: an array exactly when it repeats.
          if (rest === segment) return recursion.many;
          rest = rest.slice(segment.length);
          stripped = true;
        }
        if (stripped && exact.has(base + rest)) return true;
      }
      return false;
    },
  };
}
