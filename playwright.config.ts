import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutable, envNames } from './e2e/support/env.js';
import { freePort } from './src/server/test/ports.js';

// The port is chosen here, once, in the runner: workers inherit the variable and so agree on the same server.
process.env[envNames.baseUrl] ??= `http://127.0.0.1:${String(await freePort())}`;
const baseURL = process.env[envNames.baseUrl];
const label = process.env[envNames.dbLabel] ?? 'sqlite';

/**
 * Specs that change instance-wide settings every other spec depends on (the registration mode and the
 * sign-up question): they run after all the others, one test at a time, so no sign-up elsewhere meets
 * approval mode halfway.
 */
const instanceWide = /admin-users\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  outputDir: `test-results/${label}`,
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['./e2e/support/summary-reporter.ts']],
  globalSetup: './e2e/global-setup.ts',
  globalTeardown: './e2e/global-teardown.ts',
  projects: [
    { name: 'app', testIgnore: instanceWide },
    {
      name: 'instance-wide',
      testMatch: instanceWide,
      dependencies: ['app'],
      fullyParallel: false,
    },
  ],
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
    // Recording a trace costs a test about a third of its time on a 2-core machine: only a retry records one,
    // so a failure in CI still leaves its trace (`--trace on` records every run).
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
    navigationTimeout: 20_000,
    actionTimeout: 10_000,
  },
});
