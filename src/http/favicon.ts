/**
 * The service's icon, `/favicon.ico` (issue 55 item 10): a browser asks every origin for it, and a 404
 * in the console of every page was the answer. Drawn here rather than kept as a binary file: a white
 * plus on the pages' blue (#0b5cad), in a square with rounded corners, 32×32, as one PNG in an ICO
 * (which every browser reads), some 200 bytes. Its address never serves anything else, so it is cached
 * for a year. The API serves it (src/http/app.ts), and the demo issuer and stand-in login on their own origins.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 32;
const BLUE = [0x0b, 0x5c, 0xad, 0xff] as const;
const WHITE = [0xff, 0xff, 0xff, 0xff] as const;
const CLEAR = [0, 0, 0, 0] as const;

/** The colour of pixel (x, y): outside the rounded corners clear, the plus white, the rest blue. */
function pixel(x: number, y: number): readonly number[] {
  const radius = 6;
  const cx = Math.min(Math.max(x, radius), SIZE - 1 - radius);
  const cy = Math.min(Math.max(y, radius), SIZE - 1 - radius);
  if ((x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) return CLEAR;
  const arm = (v: number): boolean => v >= 13 && v <= 18;
  const span = (v: number): boolean => v >= 6 && v <= 25;
  return (arm(x) && span(y)) || (arm(y) && span(x)) ? WHITE : BLUE;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits a channel, RGBA, deflate, no filter method, no interlace
  const rows = Array.from({ length: SIZE }, (_, y) => Buffer.from([0, ...Array.from({ length: SIZE }, (_, x) => pixel(x, y)).flat()]));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

function ico(image: Buffer): Buffer {
  const head = Buffer.alloc(22);
  head.writeUInt16LE(1, 2); // an icon
  head.writeUInt16LE(1, 4); // of one image
  head.set([SIZE, SIZE, 0, 0], 6);
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits a pixel
  head.writeUInt32LE(image.length, 14);
  head.writeUInt32LE(head.length, 18);
  return Buffer.concat([head, image]);
}

export const FAVICON: Buffer = ico(png());
export const FAVICON_PATH = '/favicon.ico';
/** What the icon is answered with besides itself. */
export const FAVICON_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'image/x-icon', 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff',
};

/** A server of its own (node:http) answers the icon's GET or HEAD: true when `req` asked for it. */
export function answeredFavicon(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.url ?? '/').split('?')[0] !== FAVICON_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  res.writeHead(200, { ...FAVICON_HEADERS, 'content-length': String(FAVICON.length) });
  res.end(req.method === 'GET' ? FAVICON : undefined);
  return true;
}
