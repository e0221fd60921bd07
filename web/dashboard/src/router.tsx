import { createContext, type MouseEvent, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';

/** The app lives under `/app`; routes are the path after it. */
export const BASE = '/app';

interface Location {
  path: string;
  query: URLSearchParams;
}

interface RouterState extends Location {
  navigate(to: string, options?: { replace?: boolean }): void;
}

const RouterContext = createContext<RouterState | null>(null);

function current(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(window.location.search) };
}

/** History-API routing: the server answers every `/app/*` path with the app. */
export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const onPop = () => setLocation(current());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    if (leaveWarning && !window.confirm(leaveWarning)) return;
    leaveWarning = null;
    const url = `${BASE}${to === '/' ? '/' : to}`;
    if (options.replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
    setLocation(current());
  }, []);
  const value = useMemo(() => ({ ...location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** What to ask before navigating away from a page with unsaved work (null: nothing to lose). */
let leaveWarning: string | null = null;

/**
 * While `warning` is set, leaving the page through the app's links asks first (a reload or a
 * closed tab is the page's own `beforeunload`).
 */
export function useLeaveWarning(warning: string | null): void {
  useEffect(() => {
    leaveWarning = warning;
    return () => {
      if (leaveWarning === warning) leaveWarning = null;
    };
  }, [warning]);
}

export function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('useRouter outside RouterProvider');
  return router;
}

/**
 * `/sessions/:id` against `/sessions/ses_1` → `{ id: 'ses_1' }`. A part that is not valid
 * percent-encoding (`/sessions/%E0`) matches nothing, so the address shows “Page not found”
 * rather than throwing out of the render.
 */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < want.length; index++) {
    const part = want[index]!;
    if (part.startsWith(':')) {
      const decoded = decodePart(got[index]!);
      if (decoded === null) return null;
      params[part.slice(1)] = decoded;
    } else if (part !== got[index]) return null;
  }
  return params;
}

function decodePart(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** An `<a>` that navigates inside the app (a modified click still opens a new tab). */
export function Link({ to, children, className, ...rest }: { to: string; children: ReactNode; className?: string; 'aria-current'?: 'page' | undefined }) {
  const { navigate } = useRouter();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={`${BASE}${to}`} onClick={onClick} className={className} {...rest}>
      {children}
    </a>
  );
}
