import type { Config } from '../config.js';

/**
 * Points where a test may have the process die (`TEST_FAULTS=idempotency:after-commit`), to
 * prove that a crash there loses or repeats nothing. Unset in production: the check is one
 * lookup in an empty set.
 */
export type FaultPoint =
  'idempotency:before-commit' | 'idempotency:after-commit' | 'session:after-finish' | 'transcript:before-commit' | 'webhook:after-request';

/** Kills this process on the spot (SIGKILL: no cleanup, like a power cut) when the fault is enabled. */
export function crashIfEnabled(config: Pick<Config, 'testFaults'>, point: FaultPoint): void {
  if (config.testFaults.has(point)) process.kill(process.pid, 'SIGKILL');
}
