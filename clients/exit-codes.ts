/**
 * The harness commands' own exit codes (beyond 0, and Playwright's and k6's own codes, which they pass on).
 * One home, so that `npm run certify` and `npm run load` say "not judged" the same way.
 */

/** A refused option, variable or file: nothing ran (commander's and our own refusals). */
export const USAGE_ERROR = 2;

/**
 * Nothing failed, but not everything could be judged: a check blocked or not run (certify), an operation left out
 * or unreadable (load). 99, as k6 ends a run whose thresholds were crossed: a CI step fails, and the output names
 * each reason.
 */
export const NOT_JUDGED = 99;
