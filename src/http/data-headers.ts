import type { FastifyReply } from 'fastify';
import { FILTERED_HEADER } from './release-header.js';

/**
 * Headers that describe the data of a successful answer: that items were withheld from it, where its
 * next page is. An error answer has no such data, so it carries none of them, whatever was set
 * before the request failed (issue 20 item 5d: a 503 from a failed audit write kept the next page's Link;
 * helper-130 F1: one kept a new grant's Location).
 */
const ABOUT_THE_DATA = [FILTERED_HEADER, 'link', 'location'] as const;

export function removeDataHeaders(reply: FastifyReply): void {
  for (const name of ABOUT_THE_DATA) reply.removeHeader(name);
}
