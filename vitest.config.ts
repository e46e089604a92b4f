import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'engine/**/*.test.ts',
      'agents/**/*.test.ts',
      'arena/**/*.test.ts',
      'training/**/*.test.ts',
      'test/**/*.test.ts',
      'web/**/*.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'threads',
    // .ci/run asks for a JSON report beside the terminal output, to count the tests that ran
    ...(process.env.EAGLES_VITEST_REPORT
      ? { reporters: ['default', 'json'], outputFile: { json: process.env.EAGLES_VITEST_REPORT } }
      : {}),
  },
});
