import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Servers, child processes and real Redis/Postgres: give them room, but keep the suite bounded.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})
