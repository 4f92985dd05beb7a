// `npm run -s demo:token -- --person 191212121212 [--scope "user/Appointment-read ..." | --smart] [--aud URL] [--pick TEXT] [--issuer URL]`
// Prints a demo person's access token, got through the demo authorization server's real
// authorization code flow with PKCE (sign-in, patient picker and consent pages included), for the
// README's curl session; `--help` says what each option does (scripts/demo-token/request.ts).
import { DEMO_PERSONS } from '../src/dev/demo-issuer/demo-persons.js';
import { DemoSignInRefused, demoPersonToken } from '../src/dev/demo-issuer/demo-token.js';
import { demoTokenRequest, USAGE, type DemoTokenRequest } from './demo-token/request.js';

function requested(): DemoTokenRequest {
  try {
    return demoTokenRequest(process.argv.slice(2), process.env);
  } catch (err) {
    // An unknown option or one without its value: one line and the usage, never a stack.
    console.error(`demo:token: ${(err as Error).message.split('\n')[0] ?? ''}\n\n${USAGE}`);
    process.exit(2);
  }
}

const asked = requested();
if (asked.help) {
  console.log(USAGE);
  process.exit(0);
}
if ('problem' in asked) {
  console.error(`demo:token: ${asked.problem}\n\n${USAGE}`);
  process.exit(2);
}
try {
  console.log(await demoPersonToken(asked.signIn));
} catch (err) {
  // The sign-in page's words point to its list of the demo people: the list follows them here too.
  const hint = err instanceof DemoSignInRefused
    ? `\n\n${DEMO_PERSONS.map((p) => `  ${p.identityNumber}  ${p.name}`).join('\n')}`
    : ` (is \`npm start\` running without AUTH_ISSUER, with the demo issuer at ${asked.signIn.issuer}?)`;
  console.error(`demo:token: ${(err as Error).message}${hint}`);
  process.exit(1);
}
