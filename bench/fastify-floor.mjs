// The framework's floor: a one-route Fastify server answering the mock's GET path with a JSON body of the
// mock's size and the same three rate-limit headers; no hooks, no auth, no accounting, nothing read from
// the request. What the mock costs above it is the mock's own. Prints its URL on stdout.
import Fastify from 'fastify';
import { executionAsyncResource } from 'node:async_hooks';

// Node's tick-object shape held, as the mock holds it (mock/limits/tick-shape.ts): a full collection at an idle
// moment would otherwise put every nextTick of this server on V8's slow path, a ceiling lowered by luck.
let heldTick;
process.nextTick(() => (heldTick ??= executionAsyncResource()));

const size = Number(process.argv[2] ?? 300);
const body = JSON.stringify({ partNumber: 'X'.repeat(Math.max(1, size - 20)) });
const app = Fastify({ logger: false });
app.get('/resellers/v6/catalog/details/:partNumber', (_req, reply) =>
  reply
    .header('x-ratelimit-limit', '1000000000')
    .header('x-ratelimit-remaining', '999999999')
    .header('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 60))
    .type('application/json; charset=utf-8')
    .send(body),
);
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on http://127.0.0.1:${app.server.address().port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
