/**
 * What GitHub Actions reads from a run, in one place for certify and `npm run load`: Markdown for the job's step
 * summary (GITHUB_STEP_SUMMARY) and workflow commands (`::error …::`, `::warning …::`), which GitHub turns into
 * annotations. Pure text: the callers redact what they write.
 */

/** A workflow command's message: `%`, CR and LF escaped (GitHub's toolkit escapes data so). */
export const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A workflow command's property: its data escapes, and `:` and `,`. */
export const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** A workflow command that annotates the run: its properties given (file, line, title) and its message, each escaped. */
export function workflowCommand(kind: 'error' | 'warning', props: Record<string, string | number | undefined>, message: string): string {
  const list = Object.entries(props).flatMap(([k, v]) =>
    v === undefined ? [] : [`${k}=${typeof v === 'number' ? v : escapeProperty(v)}`],
  );
  return `::${kind}${list.length ? ` ${list.join(',')}` : ''}::${escapeData(message)}`;
}

/** A Markdown table cell: its pipes escaped, on one line. */
export const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A Markdown table: its header, the alignment row (numbers right-aligned) and a row per item, each cell escaped. */
export function markdownTable(head: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[] = []): string[] {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `|${head.map((_, i) => (numeric[i] ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

/** A fenced block whose fence is longer than any run of backticks inside it. */
export function fenced(text: string, lang = ''): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, text, fence];
}
