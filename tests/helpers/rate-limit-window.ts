/**
 * Rate limits count in one-minute windows aligned to the minute (by the database's clock, this
 * machine's). A test that counts requests must make them in one window, or its counts reset
 * halfway: it runs in `inOneWindow`, which, when a minute boundary fell between the body's start
 * and its end (whatever the outcome: a reset can fail a count as well as pass one), waits for the
 * next boundary and runs the body once more, in a window the first run made no calls in. Cheaper
 * than waiting for a fresh window before every such test (up to 40 s each): the wait is paid
 * only by the few runs that cross a boundary. The body must make its own buckets (a new key,
 * invite or link), as the second run cannot reuse what the first one spent.
 */
/**
 * What a test in `inOneWindow` needs: up to 15 s before it starts, its body, up to a minute's wait
 * when a boundary fell inside it, and its body again (two bodies of up to ~35 s on a loaded machine).
 */
export const IN_ONE_WINDOW_TIMEOUT_MS = 150_000;

export async function inOneWindow(body: () => Promise<void>): Promise<void> {
  const minute = () => Math.floor(Date.now() / 60_000);
  // Less than 15 s left of this window: start in the next one (a short body then never crosses).
  const msLeft = 60_000 - (Date.now() % 60_000);
  if (msLeft < 15_000) await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
  const started = minute();
  try {
    await body();
    if (minute() === started) return;
  } catch (error) {
    if (minute() === started) throw error;
  }
  await new Promise((resolve) => setTimeout(resolve, 60_000 - (Date.now() % 60_000) + 100));
  await body();
}
