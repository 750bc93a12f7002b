/**
 * The suite in five layers, so a developer can run the fast one alone (`npm run test:unit`, seconds):
 * - unit: in-process, no network beyond a local scripted server; fake clocks instead of sleeps;
 *   property tests with small counts; first, on every core, its files sharing their workers' modules;
 * - scale: the same kind of in-process tests at sizes that take seconds each (`*.scale.test.ts`):
 *   property tests with large counts, big generated corpora, memory bounds; each shares its
 *   property with the unit tier's small-count variant where there is one;
 * - integration: real Redis and PostgreSQL, real redis-server processes;
 * - e2e: the real service listening on a socket, child processes, Debian's Chromium, nginx;
 * - timing: checks that compare durations (the snapshot build's growth), run last and one file at a
 *   time, so that no other test file's servers and builds share the two cores with the measurement.
 * `npm test` runs all five (after build, typecheck and lint).
 */
import { configDefaults, defineConfig } from 'vitest/config'

/** Where in-process tests live: the unit tier's files, and the scale tier's beside them. */
const IN_PROCESS = ['src', 'bench', 'test/unit', 'test/types', 'test/relevance', 'test/corpus']
/** Tests slow because of their size: a project of their own, so that the unit tier stays in seconds. */
const SCALE_TESTS = '**/*.scale.test.ts'

export default defineConfig({
  test: {
    // Servers, child processes and real services: give them room, but keep the suite bounded.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // expect.poll waits for what another thread or process will do (a reload's build thread, a
    // replica following a publication): Vitest's 1 s is less than a build thread takes to load its
    // modules from the sources on a loaded two-core machine. A poll passes as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    // Each module's transform is kept on disk (node_modules/.experimental-vitest-cache, keyed by its
    // content): a run transforms only what changed since the last, about a fifth of the unit tier's
    // CPU otherwise, spent on the main thread beside both workers.
    experimental: { fsModuleCache: true },
    projects: [
      // The files share their worker's modules (isolate: false): a process per file cost about as
      // much CPU as the tests themselves (a worker started, then zod, Fastify and the core imported
      // again for each of about a hundred files). What this asks of a file: leave the process as it
      // found it. unit-file-reset.ts puts back, after each file, the mocks, timers, globals and
      // environment a file may have left changed. It runs first, on every core: Vitest's default
      // leaves one to its main process.
      {
        extends: true,
        test: {
          name: 'unit',
          include: IN_PROCESS.map((dir) => `${dir}/**/*.test.ts`),
          exclude: [...configDefaults.exclude, SCALE_TESTS],
          testTimeout: 10_000,
          isolate: false,
          setupFiles: ['test/support/unit-file-reset.ts'],
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
        },
      },
      // Vitest runs the projects of one groupOrder in one pool of one size: these keep the default size.
      {
        extends: true,
        test: {
          name: 'scale',
          include: IN_PROCESS.map((dir) => `${dir}/${SCALE_TESTS}`),
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [
            'test/e2e/**/*.test.ts',
            'test/regressions/**/*.test.ts',
            'test/fuzz/**/*.test.ts',
            'test/browser/**/*.test.ts',
          ],
          sequence: { groupOrder: 1 },
        },
      },
      // Alone: with other files beside it, a build's growth read ×2.89 where it is ×2.05.
      {
        extends: true,
        test: {
          name: 'timing',
          include: ['test/timing/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
})
