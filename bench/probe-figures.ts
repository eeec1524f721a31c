/** How the bench reads the probe-reset run whose requests it reports. */

/**
 * The probe's figures stand when it exited 0, or 99 with a manifest: an operation uncertain or without a result (a
 * busy machine's stalls can do that), its figures still what the probe spent. Anything else is a failure.
 */
export function probeFiguresStand(status: number | null, manifestWritten: boolean): boolean {
  return status === 0 || (status === 99 && manifestWritten);
}

/** The operations a probe left uncertain or without a result, each with why. */
export function unresolvedProbes(ops: { id: string; verdict?: string | null; uncertain?: string[] | null }[]): string[] {
  return ops
    .filter((e) => e.verdict || e.uncertain?.length)
    .map((e) => `${e.id}: ${e.verdict ? `no result (${e.verdict})` : `uncertain (${(e.uncertain ?? []).join('; ')})`}`);
}
