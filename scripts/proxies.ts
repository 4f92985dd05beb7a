// `npm run proxies`: the command is src/start/commands/proxies.ts, compiled into dist/ with the service so
// that the image runs it as `node dist/start/commands/proxies.js` (docs/contract.md §11 "Support").
import '../src/start/commands/proxies.js';
