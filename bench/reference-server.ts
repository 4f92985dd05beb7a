/**
 * The reference of `npm run bench`: a bare Fastify route answering a small JSON from memory, in
 * its own process like the service. No logger, no hooks, no plugins: the ceiling of this machine.
 */
import Fastify from 'fastify';

const BODY = { status: 'ok', patient: 'bench', items: [{ id: 1, value: 'a' }, { id: 2, value: 'b' }] };

const app = Fastify({ logger: false });
app.get('/ref', async () => BODY);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
