// `npm run sign-in-keys -- <folder>`: the command is src/start/commands/sign-in-keys.ts, compiled into dist/ with
// the service so that the image runs it as `node dist/start/commands/sign-in-keys.js` (docs/sign-in.md#set-it-up-in-an-hour).
import '../src/start/commands/sign-in-keys.js';
