import type { FastifyInstance } from 'fastify';
import { buildMockApp } from './app';
import type { MockOptions } from '../context/mock-options';

export interface RunningMock {
  /** Base URL, e.g. http://127.0.0.1:4010 (no trailing slash). */
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** Builds the mock and listens on 127.0.0.1 (port 0 = a free port). */
export async function startMock(opts: MockOptions = {}): Promise<RunningMock> {
  const app = await buildMockApp(opts);
  await app.listen({ port: opts.port ?? 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: async () => {
      app.server.closeAllConnections?.();
      await app.close();
    },
  };
}
