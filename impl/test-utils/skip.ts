/**
 * Test-only: the reason a skip names in its title, so the skip summary (skip-reporter.ts) can count
 * it: `it.skipIf(c)(\`title${skipped(c, WHY.build)}\`, ...)`. Empty when the test runs.
 */
export function skipped(skip: boolean, reason: string): string {
  return skip ? ` (skipped: ${reason})` : '';
}

/** The reasons most skips have, said the same way everywhere. */
export const WHY = {
  build: 'dist/ is not built: run npm run build',
  standard: "the standard's checkout is absent: set AEP_STANDARD_DIR (default ../shared/aep-standard beside the package)",
  schemas: 'our generated schemas are absent: run npm run gen:schemas',
  linux: 'needs Linux (/proc, real signals)',
  corpus: "the project's corpus file is absent (conformance/fixtures)",
  source: 'the module it drives is absent from this checkout',
} as const;
