/**
 * The report page's failed checks: each with its failure, the commands that send its requests again (a copy
 * button each) and its exchanges as the run recorded them in exchanges.har, so a failure can be looked at again
 * without sending anything.
 */
import type { CheckChange } from './exchange-diff';
import type { HarEntry } from './har-shapes';
import type { RunSummary, TestResult } from './report-shapes';
import { esc } from './report-tables';

/** Characters of an answer's body the page shows per exchange (exchanges.har holds it whole). */
const BODY_CHARS = 2000;

/** The exchanges the run recorded for a check, in the order they were sent. */
export const exchangesOf = (t: Pick<TestResult, 'title' | 'file'>, entries: readonly HarEntry[]): HarEntry[] =>
  entries.filter((e) => e._check === t.title && e._file === t.file);

/** One exchange: the request line, the status and correlation id, and the answer's body. */
export function exchangeBlock(e: HarEntry): string {
  const body = e.response.content.text;
  const cut = body.length > BODY_CHARS ? `${body.slice(0, BODY_CHARS)}…` : body;
  const sent = e.request.postData ? `\n${e.request.postData.text}` : '';
  return `<details><summary><code>${esc(e.request.method)} ${esc(e.request.url)}</code> → <b>${e.response.status}</b> <span class="id">IM-CorrelationID ${esc(e._correlationId)}</span></summary><pre>${esc(
    `${e.request.headers.map((h) => `${h.name}: ${h.value}`).join('\n')}${sent}`,
  )}</pre><pre>${esc(`${e.response.headers.map((h) => `${h.name}: ${h.value}`).join('\n')}\n\n${cut}`)}</pre></details>`;
}

/** A failed check: its failure, its reproduction with a copy button, its exchanges. */
function failedCheck(t: TestResult, i: number, entries: readonly HarEntry[]): string {
  const r = t.reproduction;
  const commands = r ? [...(r.token ? [r.token] : []), ...r.curls].join('\n') : '';
  const own = exchangesOf(t, entries);
  return `<div class="failed-check"><h3>${esc(t.title)} <span class="id">${esc(t.file)}</span></h3><pre>${esc(t.error ?? 'failed')}</pre>${
    r
      ? `<p>Send it again${r.variables.length ? ` (set ${esc(r.variables.join(', '))} first)` : ''}: <button type="button" class="copy" data-copy="repro-${i}">Copy</button></p><pre id="repro-${i}">${esc(commands)}</pre>${r.notReproduced.map((m) => `<p class="note">Not sent as the check did: ${esc(m)}</p>`).join('')}`
      : ''
  }${own.length ? `<p>${own.length} exchange${own.length > 1 ? 's' : ''} recorded in exchanges.har:</p>${own.map(exchangeBlock).join('')}` : ''}</div>`;
}

/** Copies the text of the block a copy button names. */
const COPY_SCRIPT = `document.querySelectorAll('button.copy').forEach(function(b){b.addEventListener('click',function(){var t=document.getElementById(b.dataset.copy).textContent;navigator.clipboard.writeText(t).then(function(){b.textContent='Copied';});});});`;

/** The section of failed checks; empty when none failed. */
export function failedChecksSection(summary: RunSummary, entries: readonly HarEntry[]): { html: string; script: string } {
  const failed = summary.tests.filter((t) => t.status === 'failed');
  if (!failed.length) return { html: '', script: '' };
  return {
    html: `<section id="failed-checks"><h2>Failed checks: the failure, the requests to send again, the exchanges the run saw</h2>${failed.map((t, i) => failedCheck(t, i, entries)).join('')}</section>`,
    script: COPY_SCRIPT,
  };
}

/** The lines of a check whose verdict changed: its verdicts, and per differing exchange what differs (the terminal's and the page's). */
export function checkChangeLines(c: CheckChange): string[] {
  return [
    `${c.title} (${c.file}): ${c.before} → ${c.after}`,
    ...(c.exchanges.length ? [] : ['  no exchange differs in status or in a header or field the checks judge (or the runs recorded none)']),
    ...c.exchanges.flatMap((x) => [
      `  ${x.request}${x.status ? `: status ${x.status.before ?? '—'} → ${x.status.after ?? '—'}` : ''}`,
      ...x.headers.map((h) => `    header ${h}`),
      ...x.fields.slice(0, 20).map((f) => `    field ${f}`),
      ...(x.fields.length > 20 ? [`    … ${x.fields.length - 20} more fields`] : []),
    ]),
  ];
}

/** The section of checks whose verdict changed since the baseline, with the exchanges that differ; empty when none. */
export function changedChecksSection(changes: readonly CheckChange[]): string {
  if (!changes.length) return '';
  return `<section id="changed-checks"><h2>Checks whose verdict changed since the baseline: the exchanges that differ</h2>${changes
    .map((c) => `<pre>${esc(checkChangeLines(c).join('\n'))}</pre>`)
    .join('')}</section>`;
}
