/**
 * Validates a rendered object against the Kubernetes OpenAPI schema of its apiVersion and kind, as
 * the npm package kubernetes-models ships them (and @kubernetes-models/external-secrets for the
 * External Secrets Operator's CRDs): types, formats, enums and required fields.
 *
 * Those schemas, like the API server's, allow fields they do not define, and a misspelt optional
 * field (`periodSecond`, `readOnlyRootFileSystem`) would pass them and be dropped by the server:
 * a probe or a security setting silently gone. So every field of the object is also checked to be
 * one the schema knows: the validator is given the object through proxies that note each field it
 * reads, and a field it never read is one no schema defines.
 */
import type { K8sObject } from './tools.js';

interface Validatable {
  prototype: { validate(this: unknown): void };
}

export interface SchemaResult {
  /** The schema's own complaints (`data/spec/replicas must be integer`). */
  errors: string[];
  /** Paths of fields the schema does not define (`.spec.template.spec.containers[0].bogus`). */
  unknownFields: string[];
}

/** The package that models an apiVersion: external-secrets.io's CRDs, or Kubernetes' own API. */
function modulePath(apiVersion: string, kind: string): string {
  if (!/^[A-Za-z0-9]+$/.test(kind) || !/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) throw new Error(`not an apiVersion and kind: ${apiVersion} ${kind}`);
  const pkg = apiVersion.startsWith('external-secrets.io/') ? '@kubernetes-models/external-secrets' : 'kubernetes-models';
  return `${pkg}/${apiVersion}/${kind}`;
}

/** The model class of the object's apiVersion and kind; throws if no schema package knows it. */
async function modelOf(apiVersion: string, kind: string): Promise<Validatable> {
  const where = modulePath(apiVersion, kind);
  let mod: Record<string, Validatable | undefined>;
  try {
    mod = (await import(where)) as Record<string, Validatable | undefined>;
  } catch (err) {
    throw new Error(`no schema for ${apiVersion} ${kind} (${where}): ${err instanceof Error ? err.message : String(err)}`);
  }
  const model = mod[kind];
  if (model === undefined) throw new Error(`${where} exports no ${kind}`);
  return model;
}

/** A deep copy of `value` whose objects note, in `read`, each own field a reader asks for. */
function watched(value: unknown, at: string, read: Set<string>, all: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((v, i) => watched(v, `${at}[${i}]`, read, all));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    all.add(`${at}.${key}`);
    copy[key] = watched(v, `${at}.${key}`, read, all);
  }
  return new Proxy(copy, {
    get(target, key, receiver) {
      if (typeof key === 'string' && Object.hasOwn(target, key)) read.add(`${at}.${key}`);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * Validates `object`. A CRD's schema leaves `metadata` to the API server (it is an ObjectMeta there
 * as everywhere), so its fields are not counted as unknown.
 */
export async function validateObject(object: K8sObject): Promise<SchemaResult> {
  const model = await modelOf(object.apiVersion, object.kind);
  const read = new Set<string>();
  const all = new Set<string>();
  const errors: string[] = [];
  try {
    model.prototype.validate.call(watched(object, '', read, all));
  } catch (err) {
    errors.push(err instanceof Error ? err.message : String(err));
  }
  const custom = object.apiVersion.startsWith('external-secrets.io/');
  const unknownFields = [...all].filter((field) => !read.has(field) && !(custom && field.startsWith('.metadata.')));
  return { errors, unknownFields };
}
