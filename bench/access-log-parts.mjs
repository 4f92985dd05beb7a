// The two per-page costs of the access log changed in round 6, each against what it replaced, in one process:
// the 14-digit local time by arithmetic vs toISOString + six slices, and HMAC-SHA256 with a KeyObject vs a Buffer key.
// node bench/access-log-parts.mjs (prints ns per call; no service, no network).
import { createHmac, createSecretKey } from 'node:crypto';
import { Buffer } from 'node:buffer';
import process from 'node:process';

const say = (line) => process.stdout.write(`${line}\n`);
const DAY_MS = 86_400_000;
const two = (n) => (n < 10 ? `0${n}` : `${n}`);
function arith(wallMs) {
  const days = Math.floor(wallMs / DAY_MS);
  const secondOfDay = Math.floor((wallMs - days * DAY_MS) / 1000);
  const z = days + 719_468; const era = Math.floor(z / 146_097); const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153); const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9; const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}${two(m)}${two(d)}${two(Math.floor(secondOfDay / 3600))}${two(Math.floor(secondOfDay / 60) % 60)}${two(secondOfDay % 60)}`;
}
function iso(ms) { const s = new Date(ms).toISOString(); return s.slice(0, 4) + s.slice(5, 7) + s.slice(8, 10) + s.slice(11, 13) + s.slice(14, 16) + s.slice(17, 19); }
const N = 1_000_000; const base = Date.parse('2026-01-01T00:00:00Z');
for (const [name, f] of [['iso', iso], ['arith', arith], ['iso', iso], ['arith', arith]]) {
  let sink = 0; const t = process.hrtime.bigint();
  for (let i = 0; i < N; i++) { const s = f(base + i * 31_536); sink += s.charCodeAt(13); } // flatten
  say(`${name}: ${(Number(process.hrtime.bigint() - t) / N).toFixed(0)} ns per local time${sink > 0 ? '' : ' (no output)'}`);
}
const raw = Buffer.alloc(32, 7); const key = createSecretKey(raw);
for (const [name, k] of [['buffer key', raw], ['KeyObject', key], ['buffer key', raw], ['KeyObject', key]]) {
  const t = process.hrtime.bigint();
  for (let i = 0; i < 100_000; i++) createHmac('sha256', k).update('binding').digest();
  say(`${name}: ${(Number(process.hrtime.bigint() - t) / 100_000).toFixed(0)} ns per HMAC`);
}
