/** Where the k6 test double's executable is (`K6_BIN` for tests and benchmarks; not a load engine). */
import { fileURLToPath } from 'node:url';

export const K6_DOUBLE_BIN = fileURLToPath(new URL('./bin/k6', import.meta.url));
