// `npm run notifications [-- --topic lab-result|access] [--person <identity number>]`, with `npm start`
// running in demo mode: a notification arriving, start to end (docs/notifications.md#trying-it).
import path from 'node:path';
import { parseArgs } from 'node:util';
import { walkthrough, type DemoTopic } from '../src/dev/notifications-demo/walkthrough.js';

const USAGE = `usage: npm run notifications [-- --topic lab-result|access] [--person <identity number of a demo person>]
  --topic    what the demo follows: a new lab result (the default), or the access log (another person's read)
  --person   who signs in and subscribes: a demo person (the default 191212121212, Tolvan)
  --api      the service, if not at http://127.0.0.1:$PORT (8080)
  --issuer   the demo sign-in, if not at http://127.0.0.1:$DEMO_AUTH_PORT (8081)`;

function options() {
  try {
    return parseArgs({
      options: { topic: { type: 'string' }, person: { type: 'string' }, api: { type: 'string' }, issuer: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (err) {
    // An unknown option or one without its value: one line and the usage, never a stack.
    console.error(`notifications: ${(err as Error).message.split('\n')[0] ?? ''}\n\n${USAGE}`);
    process.exit(2);
  }
}

const values = options();
if (values.help === true) {
  console.log(USAGE);
  process.exit(0);
}
const topic = (values.topic ?? 'lab-result') as DemoTopic;
if (topic !== 'lab-result' && topic !== 'access') {
  console.error(`notifications: --topic is lab-result or access\n\n${USAGE}`);
  process.exit(2);
}
const api = values.api ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}`;
const issuer = values.issuer ?? `http://127.0.0.1:${process.env.DEMO_AUTH_PORT ?? '8081'}`;
try {
  const ok = await walkthrough({
    api, issuer, topic, person: values.person ?? '191212121212',
    ehrDir: path.resolve(process.env.DATA_DIR ?? '.data', 'demo-ehr'),
    pollSeconds: Number(process.env.SUBSCRIPTION_POLL_SECONDS ?? '10'), zone: process.env.EHR_TIMEZONE ?? 'Europe/Stockholm',
    say: (line) => console.log(line),
  });
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(`notifications: ${(err as Error).message} (is \`npm start\` running in demo mode at ${api}, with its sign-in at ${issuer}?)`);
  process.exit(1);
}
