/** A configuration the harness refuses before any request: the message says what was expected, what was received and what to do. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
