/**
 * Runs a test's steps against its own deadline. A step with no limit of its own (a page's
 * script, a browser call) that hangs then fails the test naming that step, where the test's
 * timeout would say only that it ran out of time.
 */
export async function withinNamedSteps(limitMs: number, body: (step: (name: string) => void) => Promise<void>): Promise<void> {
  let current = "starting";
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still ${current} after ${limitMs} ms`)), limitMs);
  });
  try {
    await Promise.race([
      body((name) => {
        current = name;
      }),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
