/**
 * `npm run mock -- --port 4010 [--window-ms 60000] [--seed 1] [--control] [--drift a,b] [--reset-unit seconds] …`:
 * runs the embedded mock on 127.0.0.1 until interrupted. The options and what they mean: mock/app/command.ts
 * (`npm run mock -- --help`), read the same by the mock's own process (mock/app/main.ts).
 */
import { runMockCommand } from '../mock/app/command';

runMockCommand(process.argv);
