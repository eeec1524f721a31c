/** A command of the harness as Node's arguments, started as `npm run <name>` starts it: its TypeScript through tsx's loader. */
export const commandLine = (name: 'certify' | 'load'): string[] => ['--import', 'tsx', `scripts/${name}.ts`];
