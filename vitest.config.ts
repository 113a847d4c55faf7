import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Builds the CLI bundle when test/cli runs and the bundle is older than the sources.
    globalSetup: ['test/cli/globalSetup.ts'],
    // Property tests draw from a fixed seed unless FC_SEED says otherwise (see the file).
    setupFiles: ['test/setup/fastCheck.ts', 'test/setup/iac.ts', 'test/setup/spans.ts'],
    // The protocol and editor tests start real processes; give them room on a 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
