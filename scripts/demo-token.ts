// `npm run -s demo:token -- --person 191212121212 [--issuer http://127.0.0.1:8081] [--scope "user/Appointment-read ..."]`
// Prints a demo person's access token, got through the demo authorization server's real
// authorization code flow with PKCE (sign-in and consent pages included), for the README's curl session.
import { parseArgs } from 'node:util';
import { DemoSignInRefused, demoPersonToken } from '../src/dev/demo-issuer/demo-token.js';

const { values } = parseArgs({
  options: { person: { type: 'string' }, issuer: { type: 'string' }, scope: { type: 'string' } },
  strict: true,
});
const issuer = values.issuer ?? `http://127.0.0.1:${process.env.DEMO_AUTH_PORT ?? '8081'}`;
if (values.person === undefined) {
  console.error('usage: npm run -s demo:token -- --person <identity number of a demo person> [--issuer URL] [--scope "scope ..."]');
  process.exit(2);
}
try {
  const scopes = values.scope?.split(/[\s,]+/).filter((s) => s !== '');
  console.log(await demoPersonToken({ issuer, person: values.person, ...(scopes ? { scopes } : {}) }));
} catch (err) {
  const hint = err instanceof DemoSignInRefused ? '' : ` (is \`npm start\` running without AUTH_ISSUER, with the demo issuer at ${issuer}?)`;
  console.error(`demo:token: ${(err as Error).message}${hint}`);
  process.exit(1);
}
