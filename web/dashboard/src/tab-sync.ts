/**
 * The tabs of one sign-in share one refresh token. A duplicated tab starts with a copy of the
 * other's sessionStorage, so both hold the same single-use refresh token: if each spent its own
 * copy, the second use, minutes later, would look like a stolen token played back and end the
 * sign-in everywhere. So the tabs of a sign-in (same `signInId`, copied with the storage) talk over
 * a BroadcastChannel: whoever refreshes tells the others the new pair, a tab that starts (or
 * wakes from being discarded) asks the others for the current one before spending its own, and
 * refreshes run one at a time across tabs (Web Locks). The server forgives what is left: the same
 * token twice within seconds from the same browser.
 *
 * The channel is same-origin only; what it carries is what sessionStorage holds, readable only by
 * the service's own scripts (`script-src 'self'` on every page it serves).
 */

export interface SharedPair<T> {
  signInId: string;
  refreshToken: string;
  accessTokenExpiresAt: number;
  signedIn: T;
}

type Message<T> =
  | { type: 'rotated'; pair: SharedPair<T> }
  | { type: 'ask'; signInId: string; nonce: string }
  | { type: 'current'; nonce: string; pair: SharedPair<T> }
  | { type: 'signedOut'; signInId: string };

/** How long a starting or refreshing tab waits for the other tabs to say what they hold. */
const ASK_TIMEOUT_MS = 200;

export interface TabSync<T> {
  /** Tells the other tabs of the sign-in the pair this tab just got. */
  rotated(pair: SharedPair<T>): void;
  /** The newest pair another live tab of the sign-in holds, if any answers in time. */
  ask(signInId: string): Promise<SharedPair<T> | undefined>;
  signedOut(signInId: string): void;
  close(): void;
}

export function newSignInId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * `current()` answers this tab's pair for the other tabs' questions; `onRotated` and `onSignedOut`
 * are the other tabs' news for this sign-in. Without BroadcastChannel every call is a no-op.
 */
export function openTabSync<T>(handlers: { current(): SharedPair<T> | undefined; onRotated(pair: SharedPair<T>): void; onSignedOut(): void }): TabSync<T> {
  if (typeof BroadcastChannel === 'undefined') {
    return { rotated() {}, ask: async () => undefined, signedOut() {}, close() {} };
  }
  const channel = new BroadcastChannel('dashboard.auth');
  const waiting = new Map<string, (pair: SharedPair<T>) => void>();
  channel.onmessage = (event: MessageEvent<Message<T>>) => {
    const message = event.data;
    const mine = handlers.current();
    if (message.type === 'current') waiting.get(message.nonce)?.(message.pair);
    else if (message.type === 'ask') {
      if (mine && mine.signInId === message.signInId) channel.postMessage({ type: 'current', nonce: message.nonce, pair: mine } satisfies Message<T>);
    } else if (message.type === 'rotated') {
      if (mine && mine.signInId === message.pair.signInId && message.pair.accessTokenExpiresAt > mine.accessTokenExpiresAt) handlers.onRotated(message.pair);
    } else if (message.type === 'signedOut') {
      if (mine && mine.signInId === message.signInId) handlers.onSignedOut();
    }
  };
  return {
    rotated: (pair) => channel.postMessage({ type: 'rotated', pair } satisfies Message<T>),
    signedOut: (signInId) => channel.postMessage({ type: 'signedOut', signInId } satisfies Message<T>),
    ask(signInId) {
      const nonce = newSignInId();
      let newest: SharedPair<T> | undefined;
      return new Promise((resolve) => {
        waiting.set(nonce, (pair) => {
          if (pair.signInId === signInId && (!newest || pair.accessTokenExpiresAt > newest.accessTokenExpiresAt)) newest = pair;
        });
        setTimeout(() => {
          waiting.delete(nonce);
          resolve(newest);
        }, ASK_TIMEOUT_MS);
        channel.postMessage({ type: 'ask', signInId, nonce } satisfies Message<T>);
      });
    },
    close: () => channel.close(),
  };
}

/** Runs `task` while no other tab of the sign-in refreshes (Web Locks), or at once where there are none. */
export function oneTabAtATime<R>(signInId: string, task: () => Promise<R>): Promise<R> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return task();
  return locks.request(`dashboard.refresh:${signInId}`, task) as Promise<R>;
}
