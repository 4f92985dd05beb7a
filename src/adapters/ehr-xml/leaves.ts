/**
 * Leaf conversions (docs/upstream-ehr.md#1-rules-every-document-follows): text stays text however numeric it looks; only bool/int/num convert,
 * strictly; ID and TV come from attributes; an empty element, `xsi:nil` or an ID/TV without its
 * attributes is absent (undefined).
 */
import { isCompactDate, isCompactDateTime } from '../../domain/time/local-time.js';
import { malformed } from './malformed-document-error.js';
import { leaf, type Leaf } from './shape.js';

type Node = Record<string, unknown>;

const INT = /^-?\d+$/;
const NUM = /^-?\d+(?:\.\d+)?$/;

export const isElementObject = (raw: unknown): raw is Node =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw);

export const isNil = (node: Node): boolean => node['@_nil'] === 'true' || node['@_nil'] === '1';

/** The trimmed text of a leaf element or attribute; CDATA is not trimmed by the parser. */
export function textOf(raw: unknown, name: string): string | undefined {
  if (typeof raw === 'string') {
    const t = raw.trim();
    return t === '' ? undefined : t;
  }
  if (raw === undefined) return undefined;
  if (!isElementObject(raw)) throw malformed(`bad ${name}`);
  if (isNil(raw)) return nilled(raw, name);
  for (const key in raw) {
    if (key !== '#text' && !key.startsWith('@_')) throw malformed(`unexpected content in ${name}`);
  }
  return textOf(raw['#text'], name);
}

/**
 * An element `xsi:nil` makes absent; with text or elements inside it is refused, since the text would be
 * dropped unseen (hostile review helper-216, F8: a nil `DosageText` lost "Enligt ordination…").
 */
export function nilled(node: Node, name: string): undefined {
  for (const key in node) {
    if (key.startsWith('@_')) continue;
    const v = node[key];
    if (typeof v !== 'string' || v.trim() !== '') throw malformed(`content inside a nil ${name}`);
  }
  return undefined;
}

function attribute(raw: unknown, attr: string): string | undefined {
  if (!isElementObject(raw) || isNil(raw)) return undefined;
  const v = raw[attr];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export const STR: Leaf = leaf(textOf);

export const BOOL: Leaf = leaf((raw, name) => {
  const t = textOf(raw, name);
  if (t === undefined) return undefined;
  if (t === 'true') return true;
  if (t === 'false') return false;
  throw malformed(`bad boolean ${name}`);
});

function strictInt(t: string, name: string): number {
  const n = Number(t);
  if (!INT.test(t) || !Number.isSafeInteger(n)) throw malformed(`bad integer ${name}`);
  return n;
}

export const INTEGER: Leaf = leaf((raw, name) => {
  const t = textOf(raw, name);
  return t === undefined ? undefined : strictInt(t, name);
});

export const NUMBER: Leaf = leaf((raw, name) => {
  const t = textOf(raw, name);
  if (t === undefined) return undefined;
  const n = Number(t);
  if (!NUM.test(t) || !Number.isFinite(n)) throw malformed(`bad number ${name}`);
  return n;
});

export const ID: Leaf = leaf((raw) => {
  const extension = attribute(raw, '@_extension');
  const root = attribute(raw, '@_root');
  return extension === undefined || root === undefined ? undefined : { extension, root };
});

/** The root a text AccessZoneID is given (docs/upstream-ehr.md#3-documents: minor 3.0 journal notes, medications). */
export const ACCESS_ZONE_ROOT = '1.2.752.99999.1.7';

/** `AccessZones.AccessZoneID`: an ID element, or its text as `{extension: text, root: ACCESS_ZONE_ROOT}`. */
export const ACCESS_ZONE_ID: Leaf = leaf((raw, name, ctx) => {
  if (isElementObject(raw) && (Object.hasOwn(raw, '@_extension') || Object.hasOwn(raw, '@_root'))) return ID.convert(raw, name, ctx);
  const extension = textOf(raw, name);
  return extension === undefined ? undefined : { extension, root: ACCESS_ZONE_ROOT };
});

type TimeForm = 'any' | 'date' | 'dateTime';

/** The validated compact value of a TV element, or undefined when it carries none. */
export function timeValueOf(raw: unknown, name: string, form: TimeForm = 'any'): string | undefined {
  const value = attribute(raw, '@_value');
  if (value === undefined) return undefined;
  const ok = form === 'date' ? isCompactDate(value)
    : form === 'dateTime' ? isCompactDateTime(value)
      : isCompactDateTime(value) || isCompactDate(value);
  if (!ok) throw malformed(`bad time value in ${name}`);
  return value;
}

const tv = (form: TimeForm): Leaf => leaf((raw, name) => {
  const value = timeValueOf(raw, name, form);
  return value === undefined ? undefined : { value };
});

/** 14 digits `YYYYMMDDhhmmss` or 8 digits `YYYYMMDD`. */
export const TV = tv('any');
/** Only the 8-digit date form (PatientBirthDate). */
export const DATE_TV = tv('date');

/** `{codeSystem, displayName: {value}}`; a Code without either attribute is absent. */
export const CODE: Leaf = leaf((raw, name) => {
  if (!isElementObject(raw) || isNil(raw)) return undefined;
  const codeSystem = attribute(raw, '@_codeSystem');
  const display = raw.displayName;
  if (Array.isArray(display)) throw malformed(`repeated displayName in ${name}`);
  const value = attribute(display, '@_value');
  if (codeSystem === undefined && value === undefined) return undefined;
  return {
    ...(codeSystem !== undefined && { codeSystem }),
    ...(value !== undefined && { displayName: { value } }),
  };
});
