/**
 * The command lines' option parsers: each option is parsed once, where commander reads it, into the type its
 * code uses. A value that does not parse ends the command with exit 2 and a message naming the option, what it
 * expects and what it received (commander's own refusals, unknown options included, end the same way).
 */
import { CommanderError, InvalidArgumentError, type Command } from 'commander';
import { parseDuration } from '../common/k6-duration';
import { USAGE_ERROR } from '../clients/exit-codes';

/** An option's parser, with what it takes in words (the refusal's and the configuration reference's). */
type Parser<T> = ((value: string) => T) & { constraint?: string };

/** A parser that refuses with "<option> expects <constraint>, received …" and carries its constraint for the reference. */
export function described<T>(constraint: string, parse: (value: string) => T): Parser<T> {
  return Object.assign(parse, { constraint });
}

/** An option's constraint in words, when its parser says it. */
export const constraintOf = (parse: unknown): string | undefined => (parse as Parser<unknown> | undefined)?.constraint;

/** An integer within [min, max]: `--budget 5000`. */
export function integer(option: string, min = 0, max = Number.MAX_SAFE_INTEGER): Parser<number> {
  const constraint = `an integer ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}`;
  return described(constraint, (v) => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`${option} expects ${constraint}, received "${v}"`);
    return n;
  });
}

/** A number above zero: a share such as `--fraction 0.5` (above 1 runs past the limits, as a test of them may). */
export function positive(option: string): Parser<number> {
  const constraint = 'a number above 0 (e.g. 0.5)';
  return described(constraint, (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${option} expects ${constraint}, received "${v}"`);
    return n;
  });
}

/** A length in k6's duration syntax (`90s`, `1m30s`), kept as written and checked to be above zero. */
export function duration(option: string): Parser<string> {
  const constraint = 'a length above zero in k6 syntax such as 500ms, 90s, 1m30s, 30m';
  return described(constraint, (v) => {
    if (!parseDuration(v)) throw new InvalidArgumentError(`${option} expects ${constraint}; received "${v}"`);
    return v;
  });
}

/** A comma-separated list whose every item is one of `valid` (duplicates dropped, order kept). */
export function listOf(option: string, valid: readonly string[]): Parser<string[]> {
  const constraint = `a comma-separated list of ${valid.join(', ')}`;
  return described(constraint, (v) => {
    const items = [
      ...new Set(
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = items.filter((i) => !valid.includes(i));
    if (!items.length || unknown.length)
      throw new InvalidArgumentError(
        `${option} expects ${constraint}; received ${unknown.length ? `unknown "${unknown.join('", "')}"` : 'an empty list'}`,
      );
    return items;
  });
}

/** A value read by `parse`, whose error (an Error naming the option) becomes commander's refusal; `constraint` says what it takes. */
export function parsedBy<T>(parse: (value: string) => T, constraint?: string): Parser<T> {
  const parser = (v: string) => {
    try {
      return parse(v);
    } catch (e) {
      throw new InvalidArgumentError((e as Error).message);
    }
  };
  return constraint === undefined ? parser : described(constraint, parser);
}

/** One of `valid`. */
export function oneOf<T extends string>(option: string, valid: readonly T[]): Parser<T> {
  const constraint = `one of ${valid.join(', ')}`;
  return described(constraint, (v) => {
    if (!(valid as readonly string[]).includes(v)) throw new InvalidArgumentError(`${option} expects ${constraint}, received "${v}"`);
    return v as T;
  });
}

/**
 * Parses argv with a command's definition; a refused argument ends the process with USAGE_ERROR (commander
 * has printed why), --help and --version with 0.
 */
export function parseOrExit(program: Command, argv: readonly string[] = process.argv): Command {
  program.exitOverride();
  try {
    return program.parse(argv as string[]);
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    process.exit(e.exitCode === 0 ? 0 : USAGE_ERROR);
  }
}
