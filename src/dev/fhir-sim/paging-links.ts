/**
 * Paging links, as a FHIR server gives them: Medplum's memory repository honours `_count` and
 * `_offset` and counts `total`, but writes no `Bundle.link`, and no `fullUrl` on the entries.
 */
interface SearchBundle {
  resourceType: 'Bundle';
  type?: string;
  total?: number;
  link?: { relation: string; url: string }[];
  entry?: { fullUrl?: string; resource?: { resourceType: string; id?: string } }[];
}

const isSearchBundle = (body: unknown): body is SearchBundle =>
  typeof body === 'object' && body !== null && (body as SearchBundle).resourceType === 'Bundle' && (body as SearchBundle).type === 'searchset';

/** `body` with `self` and `next` links and full URLs, when it is a search's Bundle; else as it is. */
export function withPagingLinks(body: unknown, requestUrl: URL, base: string): unknown {
  if (!isSearchBundle(body)) return body;
  const count = Number(requestUrl.searchParams.get('_count'));
  const offset = Number(requestUrl.searchParams.get('_offset') ?? 0);
  const link = [{ relation: 'self', url: requestUrl.href }];
  if (count > 0 && offset + count < (body.total ?? 0)) {
    const next = new URL(requestUrl);
    next.searchParams.set('_offset', String(offset + count));
    link.push({ relation: 'next', url: next.href });
  }
  const entry = body.entry?.map((e) => (e.resource?.id === undefined ? e : { ...e, fullUrl: `${base}/${e.resource.resourceType}/${e.resource.id}` }));
  return { ...body, link, ...(entry === undefined ? {} : { entry }) };
}
