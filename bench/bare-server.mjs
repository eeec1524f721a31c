// The ceiling: a bare node:http server answering a JSON body of the mock's size with the same three
// rate-limit headers, no routing, no auth, no accounting. Prints its URL on stdout.
import { createServer } from 'node:http';

const size = Number(process.argv[2] ?? 300);
const body = JSON.stringify({ partNumber: 'X'.repeat(Math.max(1, size - 20)) });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'X-RateLimit-Limit': '1000000000',
      'X-RateLimit-Remaining': '999999999',
      'X-RateLimit-Reset': String(Math.ceil(Date.now() / 1000) + 60),
    });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
