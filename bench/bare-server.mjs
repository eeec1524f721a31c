// The ceiling: a bare node:http server answering a JSON body of the mock's size with the same three
// rate-limit headers, no routing, no auth, no accounting. `bare-server.mjs <GET size> [<POST size>]`: a
// POST's JSON body is read and parsed (as the mock must) and answered with a body of the POST size.
// Prints its URL on stdout.
import { createServer } from 'node:http';
import { executionAsyncResource } from 'node:async_hooks';

// Node's tick-object shape held, as the mock holds it (mock/limits/tick-shape.ts): a full collection at an idle
// moment would otherwise put every nextTick of this server on V8's slow path, a ceiling lowered by luck.
let heldTick;
process.nextTick(() => (heldTick ??= executionAsyncResource()));

const bodyOf = (size) => JSON.stringify({ partNumber: 'X'.repeat(Math.max(1, size - 20)) });
const getBody = bodyOf(Number(process.argv[2] ?? 300));
const postBody = bodyOf(Number(process.argv[3] ?? process.argv[2] ?? 300));

function answer(res, body) {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'X-RateLimit-Limit': '1000000000',
    'X-RateLimit-Remaining': '999999999',
    'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
  });
  res.end(body);
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    req.resume();
    req.on('end', () => answer(res, getBody));
    return;
  }
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (text += c));
  req.on('end', () => {
    try {
      JSON.parse(text);
    } catch {
      res.writeHead(400).end();
      return;
    }
    answer(res, postBody);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
