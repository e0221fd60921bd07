/**
 * Rate limits count in one-minute windows aligned to the minute. A test that counts requests
 * waits for a fresh window when fewer than `secondsNeeded` seconds are left of the current one,
 * so its counts do not reset halfway.
 */
export async function atStartOfWindow(secondsNeeded = 15): Promise<void> {
  const secondsLeft = 60 - ((Date.now() / 1000) % 60);
  if (secondsLeft < secondsNeeded) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 100));
}
