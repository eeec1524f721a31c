/**
 * The embedded mock's clock around a rate-limit check: frozen for the check, so no window rolls over while
 * it counts (a reset is reached by moving the clock), then back to the system clock with every window
 * dropped, so the next check starts with full quotas. A target without the mock's control API is left alone.
 */
import type { Session } from './session';

/** Freezes the mock's clock at now. */
export async function freezeMockClock(session: Session): Promise<void> {
  await session.target.control?.('POST', '/clock', { nowMs: Date.now() });
}

/** The mock's clock back to the system's, and every window dropped. */
export async function releaseMockClock(session: Session): Promise<void> {
  const control = session.target.control;
  if (!control) return;
  await control('POST', '/clock', { system: true });
  await control('PUT', '/limits', {});
}
