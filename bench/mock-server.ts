/** The embedded mock for benchmarks: limits far above the load so accounting runs but never refuses. */
import { startMock } from '../mock';
import { allOperations, DEFAULT_WINDOW_MS } from '../catalogue';

const limits = Object.fromEntries(allOperations().map((o) => [o.id, 1_000_000_000]));
const started = performance.now();
const mock = await startMock({ port: 0, windowMs: DEFAULT_WINDOW_MS, limits });
console.log(`listening on ${mock.url} startMs=${(performance.now() - started).toFixed(1)}`);
process.on('SIGTERM', () => void mock.close().then(() => process.exit(0)));
