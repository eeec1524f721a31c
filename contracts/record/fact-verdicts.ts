/**
 * A check that judges several facts at one place says which one broke: each fact's assertions run in `judging(fact,
 * …)`, and the check's verdict carries the facts it judged to the end and those it found broken (a failed
 * assertion, soft or not). The ledger (outcomes/fact-ledger.ts) then fails only the broken facts' pairs, passes the
 * judged ones, and leaves the pairs of facts the check never reached not judged. A check that says nothing of its
 * facts fails all its pairs.
 */
import { test } from '@playwright/test';
import { ANNOTATION, runningCheck, type FactVerdicts } from './annotations';

/** The fact verdicts of the test's own check (a test that is one check), by test. */
const ofTests = new WeakMap<object, FactVerdicts>();

/** The verdicts the running check keeps: a grouped check's own, else the test's (written as an annotation). */
function verdictsHere(): { verdicts: FactVerdicts; softErrors: () => number } {
  const check = runningCheck();
  if (check) {
    check.result.facts ??= { judged: [], broken: [] };
    return { verdicts: check.result.facts, softErrors: () => check.softErrors.length };
  }
  const info = test.info();
  let verdicts = ofTests.get(info);
  if (!verdicts) {
    const created: FactVerdicts = { judged: [], broken: [] };
    verdicts = created;
    ofTests.set(info, created);
    // Written once and kept current: the annotation's text is replaced as the test judges more facts.
    info.annotations.push({ type: ANNOTATION.factVerdicts, description: JSON.stringify(created) });
  }
  return { verdicts, softErrors: () => info.errors.length };
}

/** Records `fact` in `list` once, and rewrites the test's annotation when the verdicts are the test's own. */
function note(list: string[], fact: string): void {
  if (!list.includes(fact)) list.push(fact);
  if (runningCheck()) return;
  const info = test.info();
  const a = info.annotations.find((x) => x.type === ANNOTATION.factVerdicts);
  if (a) a.description = JSON.stringify(ofTests.get(info));
}

/** Runs the assertions of one fact (catalogue/facts.ts): the check's verdict records whether it held. */
export async function judging<T>(fact: string, assertions: () => T | Promise<T>): Promise<T> {
  const { verdicts, softErrors } = verdictsHere();
  const before = softErrors();
  try {
    const value = await assertions();
    note(softErrors() > before ? verdicts.broken : verdicts.judged, fact);
    return value;
  } catch (e) {
    note(verdicts.broken, fact);
    throw e;
  }
}
