import type { LightMyRequestResponse } from 'fastify';
import { documentedStatuses, type RouteCase } from './routes.js';

/** What a caller can see of an answer, over inject or a real socket. */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

export const asAnswer = (res: LightMyRequestResponse): Answer => ({ statusCode: res.statusCode, headers: res.headers, body: res.body });

// Text that must never reach a caller: stack frames, exception names with a message, file paths.
export const LEAKS: ReadonlyArray<[string, RegExp]> = [
  ['a stack frame', /\n\s+at \S|\bat \S+ \([^)]*:\d+:\d+\)|\bat (?:file|node):/],
  ['an exception text', /\b(?:Type|Range|Reference|Syntax)?Error: /],
  ['a file path', /\/(?:work|home|tmp|usr|var)\/|node_modules|file:\/\/|[\w-]+\.(?:ts|js|mjs|cjs):\d+/],
];

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const keysOf = (v: object): string => Object.keys(v).sort().join(',');

function contentTypeOf(answer: Answer): string {
  const ct = answer.headers['content-type'];
  return Array.isArray(ct) ? ct.join(',') : String(ct ?? '');
}

/**
 * Every way the answer breaks docs/contract.md#errors for `route` (undefined: an unknown path, which answers
 * shape 1): a status the route does not document, an error body that is not exactly shape 1 or
 * exactly shape 2 as the route says, a success (200, or 201 for a new grant) whose JSON is not the route's top-level type, a body
 * that is not JSON, or text that gives away internals. Empty when the answer is fine.
 */
export function answerProblems(
  route: RouteCase | undefined,
  answer: Answer,
  options: { method?: string; path?: string; allowed?: readonly number[] } = {},
): string[] {
  const problems: string[] = [];
  const status = answer.statusCode;
  const allowed = options.allowed ?? (route ? documentedStatuses(route) : [404]);
  if (!allowed.includes(status)) problems.push(`status ${status} is not one of ${allowed.join('/')}`);
  if (status >= 500 && status !== 503) problems.push(`status ${status} is a server failure`);
  for (const [what, pattern] of LEAKS) if (pattern.test(answer.body)) problems.push(`the body shows ${what}`);
  if (options.method === 'HEAD') {
    if (answer.body !== '') problems.push('a HEAD answer has a body');
    return problems;
  }
  if (!/^application\/json\b/.test(contentTypeOf(answer))) problems.push(`content-type ${contentTypeOf(answer)} is not JSON`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    problems.push('the body is not JSON');
    return problems;
  }
  if (status === 200 || status === 201) {
    if (!route) {
      problems.push(`an unknown path answered ${status}`);
    } else if (route.okType === 'array' ? !Array.isArray(body) : (typeof body !== 'object' || body === null || Array.isArray(body))) {
      problems.push(`a ${status} body is not a JSON ${route.okType}`);
    } else if (route.write && !route.proxy) {
      // The EHR's writes answer ResultRecords; a new grant answers the grant (its schema is the route's own serialiser).
      const records = Array.isArray(body) ? body : [body];
      if (records.length === 0) problems.push('a write answered an empty list');
      for (const r of records as Array<Record<string, unknown>>) {
        if (!['OK', 'ERROR', 'INFO'].includes(String(r.ResultCode))) problems.push(`ResultCode ${String(r.ResultCode)}`);
        if (r.Comment !== undefined && typeof r.Comment !== 'string') problems.push('Comment is not a string');
      }
    }
    return problems;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    problems.push('an error body is not a JSON object');
    return problems;
  }
  const e = body as Record<string, unknown>;
  if ((route?.errorShape ?? 'status') === 'status') {
    if (keysOf(e) !== 'message,statusCode') problems.push(`shape 1 expected, got keys ${keysOf(e)}`);
    if (!isInt(e.statusCode) || e.statusCode !== status) problems.push(`statusCode ${String(e.statusCode)} is not the status ${status}`);
    if (typeof e.message !== 'string' || e.message.length === 0) problems.push('message is not a non-empty string');
  } else {
    if (keysOf(e) !== 'error,path,status,timestamp') problems.push(`shape 2 expected, got keys ${keysOf(e)}`);
    if (typeof e.error !== 'string' || e.error.length === 0 || e.error.length > 1024) problems.push('error is not a string of 1 to 1024 characters');
    if (typeof e.path !== 'string' || e.path.length > 128) problems.push('path is not a string of at most 128 characters');
    if (options.path !== undefined && e.path !== options.path.split('?')[0]?.slice(0, 128)) problems.push(`path ${String(e.path)} is not the requested path`);
    if (!isInt(e.status) || e.status !== status) problems.push(`status field ${String(e.status)} is not the status ${status}`);
    if (!isInt(e.timestamp) || Math.abs(e.timestamp) > 9_999_999_999_999) problems.push('timestamp is not epoch milliseconds');
  }
  return problems;
}

/** Throws, naming the request, unless the answer is documented for the route with the right body shape. */
export function expectDocumentedAnswer(
  route: RouteCase | undefined,
  answer: Answer | LightMyRequestResponse,
  label: string,
  options: { method?: string; path?: string; allowed?: readonly number[] } = {},
): void {
  const a = 'raw' in answer ? asAnswer(answer) : answer;
  const problems = answerProblems(route, a, options);
  if (problems.length > 0) {
    throw new Error(`${label}: ${problems.join('; ')} (status ${a.statusCode}, body ${a.body.slice(0, 300)})`);
  }
}

/** The message or error text of an error body in either shape. */
export function errorText(answer: Answer | LightMyRequestResponse): string {
  const body = JSON.parse(answer.body) as { message?: string; error?: string };
  return body.message ?? body.error ?? '';
}
