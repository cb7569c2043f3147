import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Piscina and LibreOffice start processes of their own; one fork per file keeps them apart.
    pool: 'forks',
    reporters: ['default', './test/helpers/summary-reporter.ts'],
  },
});
