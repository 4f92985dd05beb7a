/**
 * Which parts of a record the page asks for when it reads for someone who shared only some of them (a
 * proxy grant, docs/proxies.md): the reads of the categories given (`*` every read), never the access
 * log (a grant never opens it), the summary only with everything (it gathers every part). The service
 * decides each read either way: this keeps refusals out of the other person's log.
 */
import { READ_CATEGORIES } from 'virtual:access-log-names';

/** A read's answer, or why there is none: it failed, or (`notShared`) the person it reads never shared it, so it was not asked for. */
export type Settled<T> = { ok: true; value: T } | { ok: false; status?: number; message: string; notShared?: true };

/** Whether the part `operation` (a read's operation name, `summary` or `accessLog`) is asked for; `shared` undefined: one's own record, or a registry delegate's. */
export function readsPart(shared: readonly string[] | undefined, operation: string): boolean {
  if (shared === undefined) return true;
  if (operation === 'accessLog') return false;
  if (shared.includes('*')) return true;
  const category = READ_CATEGORIES[operation];
  return category !== undefined && shared.includes(category);
}

/** True when every part asked for was refused (403): the person no longer lets this one read, or never did. */
export function allRefused(parts: readonly Settled<unknown>[]): boolean {
  const asked = parts.filter((s) => s.ok || s.notShared !== true);
  return asked.length > 0 && asked.every((s) => !s.ok && s.status === 403);
}
