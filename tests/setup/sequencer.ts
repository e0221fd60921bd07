import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest (child processes, PostgreSQL clusters, Chromium, a cold voice
 * analysis cache), longest first, as PostgreSQL 18 runs on two cores measured them (the mean of
 * two runs on 2026-11-28). Vitest orders files by the timings it cached, and without them (a
 * fresh clone; `npm ci` empties its cache in node_modules) by size, largest first: short files
 * with long runs then started last,
 * and one worker ran one of them alone for minutes while the other sat idle (the sentiment test,
 * 147 s, was the last file of such a run). By file name, so a file moved to another folder keeps
 * its place; a name no file has any more changes nothing.
 *
 * Left out on purpose, to run in vitest's own order: the files whose checks are bound to real time
 * (database-restart.test.ts bounds how long an outage may take to be seen; the voice interview in
 * Chromium hears a spoken answer in real time). Each once missed on a fresh-clone run for a reason
 * found since and mended in the product: the restart's server died of graphile-worker releasing a
 * connection twice (worker/job-runner-pool.ts), and the voice rating was misheard in exact-zero
 * silence (the recogniser's noise floor). The voice interview's barge-in then missed once
 * (2026-11-29), for a reason not found in seven runs under load since: that test is tried twice.
 */
const LONGEST_FIRST = [
  'end-of-turn.test.ts',
  'backup.test.ts',
  'embedded-postgres.test.ts',
  'embed-browser.test.ts',
  'study-journey-browser.test.ts',
  'client-packages.test.ts',
  'dashboard-browser.test.ts',
  'idempotency.test.ts',
  'start.test.ts',
  'fuzz.test.ts',
  'webhooks.test.ts',
  'heard-check-browser.test.ts',
  'multi-process.test.ts',
  'webhooks-crash.test.ts',
  'campaigns-dashboard-browser.test.ts',
  'study-builder-fixes-browser.test.ts',
  'admin-cli.test.ts',
  'private-checkout.test.ts',
  'member-auth.test.ts',
  'study-builder-browser.test.ts',
  'campaign-results-browser.test.ts',
  'storage-s3.test.ts',
  'session-tracks.test.ts',
  'idempotency-crash.test.ts',
  'openapi-client.test.ts',
  'speech-pocketsphinx.test.ts',
  'scale-out.test.ts',
];

/** Vitest's own order, with the files above moved to the front in their order. */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(path.basename(file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
