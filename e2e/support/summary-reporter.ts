import { writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase } from '@playwright/test/reporter';
import { envNames } from './env.js';

/** Counts of one run, by each test's final outcome. */
export interface RunSummary {
  label: string;
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  status: FullResult['status'];
}

/** Prints one plain closing line ("sqlite: N passed, N failed, N skipped") and, when asked, writes the counts. */
export default class SummaryReporter implements Reporter {
  private readonly tests: TestCase[] = [];

  onTestBegin(test: TestCase): void {
    if (!this.tests.includes(test)) this.tests.push(test);
  }

  onEnd(result: FullResult): void {
    const summary: RunSummary = {
      label: process.env[envNames.dbLabel] ?? 'sqlite',
      passed: 0,
      failed: 0,
      flaky: 0,
      skipped: 0,
      status: result.status,
    };
    for (const test of this.tests) {
      switch (test.outcome()) {
        case 'expected':
          summary.passed += 1;
          break;
        case 'flaky':
          summary.passed += 1;
          summary.flaky += 1;
          break;
        case 'unexpected':
          summary.failed += 1;
          break;
        case 'skipped':
          summary.skipped += 1;
          break;
      }
    }
    // A run that broke before or after its tests (globalSetup, a timeout) counts as a failure.
    if (result.status !== 'passed' && summary.failed === 0) summary.failed = 1;
    const file = process.env[envNames.summaryFile];
    if (file) writeFileSync(file, JSON.stringify(summary));
    process.stdout.write(
      `\n${summary.label}: ${String(summary.passed)} passed, ${String(summary.failed)} failed, ${String(summary.skipped)} skipped\n`,
    );
  }

  printsToStdio(): boolean {
    return true;
  }
}
