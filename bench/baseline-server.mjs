// The baseline for every figure of the load benchmark: Fastify alone, one route, a small JSON
// answer, no database. Run as its own process like the real server.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/bench', async () => ({ status: 'ok' }));

const port = Number(process.env.PORT ?? 3001);
await app.listen({ port, host: '127.0.0.1' });

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
