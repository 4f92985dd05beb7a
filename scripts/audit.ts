// `npm run audit`: the command is src/start/commands/audit.ts, compiled into dist/ with the service so
// that the image runs it as `node dist/start/commands/audit.js` (docs/operations.md#the-audit-store).
import '../src/start/commands/audit.js';
