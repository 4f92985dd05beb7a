/**
 * FHIR search URLs (docs/upstream-fhir.md#search-and-paging): values percent-encoded except what
 * FHIR's syntax needs as it is (`,` between alternatives, `:` in modifiers and includes, `/` in
 * references), so `|` travels as `%7C` and a `+` of an offset as `%2B`, never as a space.
 */
export type SearchParams = readonly (readonly [name: string, value: string])[];

const encodeFhir = (text: string): string =>
  encodeURIComponent(text).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/');

/** `<base>/<type>?<params>`; `base` without a trailing `/`. */
export function searchUrl(baseUrl: string, type: string, params: SearchParams): string {
  const query = params.map(([name, value]) => `${encodeFhir(name)}=${encodeFhir(value)}`).join('&');
  return `${baseUrl.replace(/\/+$/, '')}/${type}${query === '' ? '' : `?${query}`}`;
}

/** The name of a search parameter without its modifier (`_include:iterate` -> `_include`, `code:text` -> `code`). */
export const parameterName = (name: string): string => name.split(':')[0] as string;
