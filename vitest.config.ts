import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/setup/sequencer.js';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    pool: 'forks',
    // The files of a worker share its module cache: each file still gets its own app, database and
    // data directory, but not a fresh import of the whole server (about 3.5 s a file, five minutes
    // of a full run). Module state is caches of immutable things (lexicons, fonts, published plans).
    isolate: false,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
