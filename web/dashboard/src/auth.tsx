import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { newSignInId, oneTabAtATime, openTabSync, type SharedPair, type TabSync } from './tab-sync';
import { type Client, createClient, type RouterOutputs } from './trpc';

type SignedIn = RouterOutputs['auth']['signIn'];

export interface Session {
  member: SignedIn['member'];
  organization: SignedIn['organization'];
}

interface AuthState {
  session: Session | null;
  /** True while a stored sign-in is being resumed (page reload). */
  resuming: boolean;
  client: Client;
  /** The member's current access token (refreshed first when it is about to expire), for the few plain REST calls (multipart uploads). */
  accessToken(): Promise<string | undefined>;
  signIn(input: { email: string; password: string; organizationId?: string }): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * Where the refresh token lives: in this tab's sessionStorage. The server answers it in the body
 * (no cookie), so the page must keep it somewhere; sessionStorage keeps a sign-in across a reload
 * of the tab and ends it when the tab closes, and no other site reads it. The access token (15
 * minutes) stays in memory only. Script injection is what could read either, which the page's CSP
 * (`script-src 'self'`, no inline script) and React's escaping are there to prevent.
 */
const REFRESH_KEY = 'dashboard.refresh';
/** The sign-in the token belongs to: a duplicated tab copies it with the token, and the tabs of one sign-in share one token (tab-sync.ts). */
const SIGN_IN_KEY = 'dashboard.signIn';

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;

function pairOf(signInId: string, signedIn: SignedIn): SharedPair<SignedIn> {
  return { signInId, refreshToken: signedIn.refreshToken, accessTokenExpiresAt: Date.parse(signedIn.accessTokenExpiresAt), signedIn };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const current = useRef<SharedPair<SignedIn> | null>(null);
  const refreshing = useRef<Promise<string | undefined> | null>(null);
  const sync = useRef<TabSync<SignedIn> | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [resuming, setResuming] = useState(() => Boolean(sessionStorage.getItem(REFRESH_KEY)));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    current.current = null;
    sessionStorage.removeItem(REFRESH_KEY);
    sessionStorage.removeItem(SIGN_IN_KEY);
    clearTimeout(timer.current);
    setSession(null);
  }, []);

  // Created once: its token source reads the refs, so the client never changes identity.
  const clientRef = useRef<Client | null>(null);

  /** Takes a pair as this tab's (its own refresh, another tab's, or a new sign-in): kept, shown, its refresh scheduled. */
  const adopt = useCallback((pair: SharedPair<SignedIn>) => {
    current.current = pair;
    sessionStorage.setItem(SIGN_IN_KEY, pair.signInId);
    sessionStorage.setItem(REFRESH_KEY, pair.refreshToken);
    setSession({ member: pair.signedIn.member, organization: pair.signedIn.organization });
    clearTimeout(timer.current);
    const wait = Math.max(5_000, pair.accessTokenExpiresAt - Date.now() - REFRESH_MARGIN_MS);
    timer.current = setTimeout(() => void refresh(), wait);
  }, []);

  /**
   * One refresh at a time, across the tabs of the sign-in: the refresh token is single-use, and a
   * spent one presented later ends the sign-in. Another tab may already have refreshed (or this
   * tab may be a copy of one, or be waking up): its pair is taken instead of spending a stale token.
   */
  const refresh = useCallback((): Promise<string | undefined> => {
    if (refreshing.current) return refreshing.current;
    // A tab signed in before sign-ins had an id gets one now.
    const signInId = current.current?.signInId ?? sessionStorage.getItem(SIGN_IN_KEY) ?? newSignInId();
    refreshing.current = oneTabAtATime(signInId, async () => {
      const shared = await sync.current?.ask(signInId);
      if (shared && shared.accessTokenExpiresAt > (current.current?.accessTokenExpiresAt ?? 0)) adopt(shared);
      const mine = current.current;
      if (mine && mine.accessTokenExpiresAt - Date.now() > REFRESH_MARGIN_MS) return mine.signedIn.accessToken;
      const refreshToken = sessionStorage.getItem(REFRESH_KEY);
      if (!refreshToken) return undefined;
      const pair = pairOf(signInId, await clientRef.current!.auth.refresh.mutate({ refreshToken }));
      adopt(pair);
      sync.current?.rotated(pair);
      return pair.signedIn.accessToken;
    })
      .catch(() => {
        clear();
        return undefined;
      })
      .finally(() => {
        refreshing.current = null;
      });
    return refreshing.current;
  }, [adopt, clear]);

  const accessToken = useCallback(async (): Promise<string | undefined> => {
    const mine = current.current;
    if (mine && mine.accessTokenExpiresAt - Date.now() > 10_000) return mine.signedIn.accessToken;
    if (!mine && !sessionStorage.getItem(REFRESH_KEY)) return undefined;
    return refresh();
  }, [refresh]);

  if (!clientRef.current) clientRef.current = createClient(accessToken);

  // Before the resume below (effects run in order): a starting tab asks the others first.
  useEffect(() => {
    const channel = openTabSync<SignedIn>({ current: () => current.current ?? undefined, onRotated: adopt, onSignedOut: clear });
    sync.current = channel;
    return () => {
      channel.close();
      if (sync.current === channel) sync.current = null;
    };
  }, [adopt, clear]);

  useEffect(() => {
    if (!resuming) return;
    void refresh().finally(() => setResuming(false));
    // Once, at start.
  }, []);

  useEffect(() => () => clearTimeout(timer.current), []);

  const value = useMemo<AuthState>(
    () => ({
      session,
      resuming,
      client: clientRef.current!,
      accessToken,
      async signIn(input) {
        adopt(pairOf(newSignInId(), await clientRef.current!.auth.signIn.mutate(input)));
      },
      async signOut() {
        const signInId = current.current?.signInId;
        try {
          await clientRef.current!.auth.signOut.mutate({ everywhere: false });
        } finally {
          // The sign-in the tabs share has ended: the other tabs of it show the sign-in form too.
          if (signInId) sync.current?.signedOut(signInId);
          clear();
        }
      },
    }),
    [session, resuming, adopt, clear, accessToken],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
