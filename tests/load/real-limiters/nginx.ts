/**
 * nginx's `limit_req` in front of the embedded mock: a configuration generated into a temporary folder, nginx run
 * in the foreground (`nginx -p <dir> -c <conf> -g 'daemon off;'`) on a loopback port. One zone per route, keyed
 * by the Authorization header and the URI (each app and endpoint its own bucket), refusing with 429 and the API's
 * JSON error body. nginx's limit_req is a leaky bucket: `rate` drains it, `burst` is the excess it holds, and with
 * `nodelay` the calls within the burst pass at once (none is queued), so from a full bucket burst + 1 calls pass
 * back to back (the one the rate admits, plus `burst` in excess).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { errorOf } from '../../../mock/ground/errors';

export interface NginxRoute {
  /** The path the route guards, as the probe calls it (exact location). */
  path: string;
  /** limit_req_zone rate, requests per second (a whole number, as nginx takes it). */
  ratePerSecond: number;
  /** limit_req burst (with nodelay). */
  burst: number;
}

/** The nginx executable (NGINX_BIN, else the Debian package's), or why there is none. */
export function findNginx(): { bin: string } | { missing: string } {
  const bin = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
  const v = spawnSync(bin, ['-v'], { encoding: 'utf8', timeout: 10_000 });
  if (v.error || v.status !== 0)
    return {
      missing: `nginx not installed (${bin}: ${v.error?.message ?? v.stderr.trim()}); install it with \`apt-get install -y nginx\`, or set NGINX_BIN`,
    };
  return { bin };
}

/** A free loopback port (taken and released: nginx binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The configuration: the mock as upstream (keep-alive), one zone and one exact location per route. */
export function nginxConf(dir: string, port: number, upstreamUrl: string, routes: NginxRoute[]): string {
  const upstream = new URL(upstreamUrl);
  const body = JSON.stringify(errorOf('tooManyRequests')).replace(/'/g, "\\'");
  const proxy = ['proxy_pass http://mock;', 'proxy_http_version 1.1;', 'proxy_set_header Connection "";'];
  return [
    'worker_processes 1;',
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, `${t}_temp`)};`),
    `  upstream mock { server ${upstream.hostname}:${upstream.port}; keepalive 16; }`,
    ...routes.map((r, i) => `  limit_req_zone "$http_authorization $request_method $uri" zone=route${i}:1m rate=${r.ratePerSecond}r/s;`),
    '  limit_req_status 429;',
    '  limit_req_log_level warn;',
    '  server {',
    `    listen 127.0.0.1:${port};`,
    '    error_page 429 = @too_many;',
    '    location @too_many {',
    '      default_type "application/json; charset=utf-8";',
    `      return 429 '${body}';`,
    '    }',
    ...routes.flatMap((r, i) => [
      `    location = ${r.path} {`,
      `      limit_req zone=route${i} burst=${r.burst} nodelay;`,
      ...proxy.map((p) => `      ${p}`),
      '    }',
    ]),
    '    location / {',
    ...proxy.map((p) => `      ${p}`),
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

export interface RunningNginx {
  url: string;
  close(): Promise<void>;
}

/** Writes the configuration into `dir`, checks it (`nginx -t`) and starts nginx in the foreground until it listens (port 0: a free one). */
export async function startNginx(bin: string, dir: string, upstreamUrl: string, routes: NginxRoute[], port0 = 0): Promise<RunningNginx> {
  mkdirSync(dir, { recursive: true });
  const port = port0 || (await freePort());
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConf(dir, port, upstreamUrl, routes));
  const base = ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf];
  const check = spawnSync(bin, [...base, '-t'], { encoding: 'utf8', timeout: 10_000 });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  const child: ChildProcess = spawn(bin, [...base, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Bounded: nginx listens within milliseconds; 5 s at most.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${readLog(dir)}`);
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (i >= 100) {
        child.kill('SIGKILL');
        throw new Error(`nginx did not listen on ${url} within 5 s: ${stderr}${readLog(dir)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    close: async () => {
      if (child.exitCode === null) {
        // SIGQUIT: nginx's graceful stop; SIGKILL if it has not ended within 5 s.
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

function readLog(dir: string): string {
  try {
    return readFileSync(join(dir, 'error.log'), 'utf8');
  } catch {
    return '';
  }
}
