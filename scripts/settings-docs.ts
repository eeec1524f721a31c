/**
 * `npm run settings:docs`: writes `.env.example` and docs/configuration.md from the settings' definitions
 * (config/settings.ts) and the command lines' (scripts/command-lines.ts), and names the files it changed.
 */
import { writeSettingsDocs } from '../config/settings-reference';
import { commandLines } from './command-lines';

const changed = await writeSettingsDocs(commandLines());
console.log(
  changed.length ? `settings:docs: wrote ${changed.join(', ')}` : 'settings:docs: .env.example and docs/configuration.md are up to date',
);
