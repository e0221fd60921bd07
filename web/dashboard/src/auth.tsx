import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
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
  signIn(input: { email: string; password: string; organizationId?: string }): Promise<void>;
  signOut(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * Where the refresh token lives: in this tab's sessionStorage. The server answers it in the body
 * (no cookie), so the page must keep it somewhere; sessionStorage keeps a sign-in across a reload
 * of the tab and ends it when the tab closes, and no other tab or site reads it. The access
 * token (15 minutes) stays in memory only. Script injection is what could read either, which the
 * page's CSP (`script-src 'self'`, no inline script) and React's escaping are there to prevent.
 */
const REFRESH_KEY = 'dashboard.refresh';

/** Refresh this long before the access token expires. */
const REFRESH_MARGIN_MS = 60_000;

interface Tokens {
  accessToken: string;
  accessTokenExpiresAt: number;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const tokens = useRef<Tokens | null>(null);
  const refreshing = useRef<Promise<string | undefined> | null>(null);
  const [session, setSession] = useState<Session | null>(null);
  const [resuming, setResuming] = useState(() => Boolean(sessionStorage.getItem(REFRESH_KEY)));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const clear = useCallback(() => {
    tokens.current = null;
    sessionStorage.removeItem(REFRESH_KEY);
    clearTimeout(timer.current);
    setSession(null);
  }, []);

  // Created once: its token source reads the refs, so the client never changes identity.
  const clientRef = useRef<Client | null>(null);

  const accept = useCallback((signedIn: SignedIn) => {
    tokens.current = { accessToken: signedIn.accessToken, accessTokenExpiresAt: Date.parse(signedIn.accessTokenExpiresAt) };
    sessionStorage.setItem(REFRESH_KEY, signedIn.refreshToken);
    setSession({ member: signedIn.member, organization: signedIn.organization });
    clearTimeout(timer.current);
    const wait = Math.max(5_000, Date.parse(signedIn.accessTokenExpiresAt) - Date.now() - REFRESH_MARGIN_MS);
    timer.current = setTimeout(() => void refresh(), wait);
  }, []);

  /** One refresh at a time: the refresh token is single-use, a second concurrent use would end the sign-in. */
  const refresh = useCallback((): Promise<string | undefined> => {
    if (refreshing.current) return refreshing.current;
    const refreshToken = sessionStorage.getItem(REFRESH_KEY);
    if (!refreshToken) return Promise.resolve(undefined);
    refreshing.current = clientRef
      .current!.auth.refresh.mutate({ refreshToken })
      .then(
        (signedIn) => {
          accept(signedIn);
          return signedIn.accessToken;
        },
        () => {
          clear();
          return undefined;
        },
      )
      .finally(() => {
        refreshing.current = null;
      });
    return refreshing.current;
  }, [accept, clear]);

  if (!clientRef.current) {
    clientRef.current = createClient(async () => {
      const current = tokens.current;
      if (current && current.accessTokenExpiresAt - Date.now() > 10_000) return current.accessToken;
      if (!current && !sessionStorage.getItem(REFRESH_KEY)) return undefined;
      return refresh();
    });
  }

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
      async signIn(input) {
        accept(await clientRef.current!.auth.signIn.mutate(input));
      },
      async signOut() {
        try {
          await clientRef.current!.auth.signOut.mutate({ everywhere: false });
        } finally {
          clear();
        }
      },
    }),
    [session, resuming, accept, clear],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}
