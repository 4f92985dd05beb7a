// `npm run migrate`: the command is src/start/commands/migrate.ts, compiled into dist/ with the
// service so that the image runs it as `node dist/start/commands/migrate.js` (docs/operations.md#the-audit-store).
import '../src/start/commands/migrate.js';
