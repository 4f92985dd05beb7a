/**
 * What a posted FHIR resource (a Consent, a Subscription) is refused for wherever it sits, and how a
 * refusal names where: a `modifierExtension` at any depth, and a member's path shown without a
 * person's number or a character a terminal would act on (src/http/shown-names.ts).
 */
import { escapedName, shownPath, unlessNumber } from '../shown-names.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The path of `element`'s member `name` as a refusal shows it: never one whose digits, with the path's before them, hold a person's number. */
export const memberPath = (element: string, name: string): string =>
  unlessNumber(`${element}.${name}`, `${element}.${escapedName(name)}`) ?? `${element} (a member whose name holds an identity number)`;

/** A posted element's path as a refusal shows it, from the resource type on: `Consent.provision.class[1].modifierExtension`. */
export const elementPath = (segments: readonly [string, ...(string | number)[]]): string =>
  shownPath(segments, `${segments[0]} (a path that may hold an identity number)`);

interface Visit { value: unknown; name: string | number; parent: Visit | undefined }

/**
 * Where a `modifierExtension` sits in a posted resource, as the path from its type, or undefined for
 * none. It changes the meaning of what holds it (FHIR R4 §2.4.1), wherever that is: what this service
 * does not understand it refuses, never passes over. Its own stack, not recursion (a 16 KiB body nests
 * 8,000 deep), and the path made only for the one found.
 */
export function modifierAt(resource: unknown, type: string): [string, ...(string | number)[]] | undefined {
  const open: Visit[] = [{ value: resource, name: type, parent: undefined }];
  for (let at = open.pop(); at !== undefined; at = open.pop()) {
    const { value } = at;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) open.push({ value: value[i], name: i, parent: at });
    } else if (isObject(value)) {
      if (Object.hasOwn(value, 'modifierExtension')) return [type, ...pathTo(at).slice(1), 'modifierExtension'];
      const members = Object.entries(value);
      for (let i = members.length - 1; i >= 0; i--) {
        const [name, member] = members[i] ?? ['', undefined];
        if (typeof member === 'object' && member !== null) open.push({ value: member, name, parent: at });
      }
    }
  }
  return undefined;
}

function pathTo(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at !== undefined; at = at.parent) path.push(at.name);
  return path.reverse();
}
