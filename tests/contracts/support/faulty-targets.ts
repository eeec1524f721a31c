/**
 * Faulty targets for robustness tests: each misbehaves in one way a real deployment can. A
 * certification run against them must end with a classified failure, never a hang or a crash.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

export type FaultKind =
  'never-answers' | 'resets-connections' | 'server-errors' | 'malformed-json' | 'html-error' | 'huge-body' | 'slow-drip';

export interface FaultyTarget {
  url: string;
  close(): Promise<void>;
}

/**
 * A hung gateway: accepts TCP connections and never reads or writes a byte (no HTTP server behind it).
 * `connections()` counts the connections accepted so far.
 */
export async function startSilentTarget(): Promise<FaultyTarget & { connections(): number }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createTcpServer((s) => {
    accepted += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Size of the huge body: 50 MB, streamed in 1 MB chunks. */
export const HUGE_BODY_BYTES = 50 * 1024 * 1024;

export async function startFaultyTarget(kind: FaultKind): Promise<FaultyTarget> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let n = 0;
  const server: Server = createServer((req, res: ServerResponse) => {
    req.resume();
    n += 1;
    switch (kind) {
      case 'never-answers':
        return; // keeps the socket open and silent
      case 'resets-connections':
        req.socket.destroy();
        return;
      case 'server-errors': {
        // Bursts: 500, 502, 503 in turn.
        const status = [500, 502, 503][n % 3] as number;
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errors: [{ field: null, message: `upstream ${status}` }] }));
        return;
      }
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token": "abc", "token_type": ');
        return;
      case 'html-error':
        res.writeHead(502, { 'content-type': 'text/html' }).end('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'huge-body': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < HUGE_BODY_BYTES) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return;
      }
      case 'slow-drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        const t = setInterval(() => {
          if (res.destroyed) return clearInterval(t);
          res.write(' ');
        }, 200);
        timers.add(t);
        return;
      }
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
