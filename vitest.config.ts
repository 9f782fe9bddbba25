import { defineConfig } from 'vitest/config'
import { alias, appPlugins } from './vite.config.ts'

export default defineConfig({
  plugins: appPlugins({ router: false }),
  resolve: { alias },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'happy-dom',
          include: [
            'tests/unit/**/*.test.{ts,tsx}',
            'tests/machines/**/*.test.{ts,tsx}',
            'tests/views/**/*.test.{ts,tsx}',
          ],
          setupFiles: ['tests/support/setup-dom.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'extraction',
          environment: 'node',
          include: ['tests/extraction/**/*.test.ts'],
          testTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A browser under CI's load (OCR and server tests run beside it) can take more than
          // vitest's default second to show a title or move focus after a lazy chunk: polls wait
          // for their condition up to 10 s (they still fail when it never comes).
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
})
