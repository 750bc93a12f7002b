/**
 * The suite in four layers, so a developer can run the fast one alone (`npm run test:unit`, seconds):
 * - unit: in-process, no network beyond a local scripted server; fake clocks instead of sleeps;
 * - integration: real Redis and PostgreSQL, real redis-server processes;
 * - e2e: the real service listening on a socket, child processes, Debian's Chromium, nginx;
 * - timing: checks that compare durations (the snapshot build's growth), run last and one file at a
 *   time, so that no other test file's servers and builds share the two cores with the measurement.
 * `npm test` runs all four (after build, typecheck and lint).
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Servers, child processes and real services: give them room, but keep the suite bounded.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for what another thread or process will do (a reload's build thread, a
    // replica following a publication): Vitest's 1 s is less than a build thread takes to load its
    // modules from the sources on a loaded two-core machine. A poll passes as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'test/unit/**/*.test.ts', 'test/types/**/*.test.ts', 'test/relevance/**/*.test.ts', 'test/corpus/**/*.test.ts'],
          testTimeout: 10_000,
        },
      },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/regressions/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/browser/**/*.test.ts'] } },
      // A CI run once measured the build's growth at ×2.89 while other files ran beside it (×2.05 alone).
      {
        extends: true,
        test: { name: 'timing', include: ['test/timing/**/*.test.ts'], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
})
