/** Certify against a loopback proxy in front of a fresh mock: a URL target with a live clock and no control API. */
import { startMock } from '../../../mock';
import { startProxy, type ProxyMode, type ProxyOptions } from './targets';
import { MOCK_APPS_ENV, certify, type CertifyRun } from './run-certify';

/** The exhaustion checks of the reseller family in production, with a budget no run of them spends. */
const URL_TARGET = { ...MOCK_APPS_ENV, PROBE_LIMITS: '1', FAMILIES: 'reseller', ENVIRONMENTS: 'production', REQUEST_BUDGET: '20000' };

/** Certify with `args` against a proxy of that kind in front of a fresh mock at `windowMs`. */
export async function certifyBehind(
  mode: ProxyMode,
  windowMs: number,
  args: string[],
  opts: ProxyOptions = {},
  env: Record<string, string> = {},
): Promise<CertifyRun> {
  const mock = await startMock({ windowMs });
  const proxy = await startProxy(mode, mock.url, opts);
  try {
    return await certify({ ...URL_TARGET, TARGET: proxy.url, ...env }, args);
  } finally {
    await proxy.close();
    await mock.close();
  }
}
