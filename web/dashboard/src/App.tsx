import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useAuth } from './auth';
import { Link, matchPath, useRouter } from './router';
import { useTRPC } from './trpc';
import { Loading } from './ui';
import { ApiKeysView } from './views/ApiKeys';
import { BillingView } from './views/Billing';
import { CampaignView, CampaignsView, isCampaignTab, NewCampaignView } from './views/Campaigns';
import { CollectionsView, CollectionView } from './views/Collections';
import { CompareView } from './views/Compare';
import { MembersView } from './views/Members';
import { SearchView } from './views/Search';
import { SessionView } from './views/Session';
import { SignInView } from './views/SignIn';
import { StakeholderLinksView } from './stakeholder/StakeholderLinksView';
import { WebhooksView } from './views/Webhooks';

// The study builder is the largest part of the app and a page most visits never open: its own chunk, loaded on the way there.
const NewStudyView = lazy(() => import('./views/studies/NewStudy').then((module) => ({ default: module.NewStudyView })));
const ScriptEditorView = lazy(() => import('./views/studies/ScriptEditor').then((module) => ({ default: module.ScriptEditorView })));
const ScriptsView = lazy(() => import('./views/studies/Scripts').then((module) => ({ default: module.ScriptsView })));

const NAV: { to: string; label: string; match: string[] }[] = [
  { to: '/', label: 'Campaigns', match: ['/', '/campaigns/:id', '/campaigns/:id/:tab', '/sessions/:id'] },
  { to: '/scripts', label: 'Scripts', match: ['/scripts', '/scripts/:id', '/studies/new'] },
  { to: '/search', label: 'Search', match: ['/search'] },
  { to: '/collections', label: 'Collections', match: ['/collections', '/collections/:id'] },
  { to: '/compare', label: 'Compare', match: ['/compare'] },
  { to: '/stakeholder-links', label: 'Stakeholder links', match: ['/stakeholder-links'] },
  { to: '/api-keys', label: 'API keys', match: ['/api-keys'] },
  { to: '/webhooks', label: 'Webhooks', match: ['/webhooks'] },
  { to: '/members', label: 'Members', match: ['/members'] },
  { to: '/billing', label: 'Billing', match: ['/billing'] },
];

function route(path: string): ReactNode {
  let params: Record<string, string> | null;
  if (path === '/' || path === '') return <CampaignsView />;
  if (path === '/campaigns/new') return <NewCampaignView />;
  if ((params = matchPath('/campaigns/:id', path))) return <CampaignView key={params.id} campaignId={params.id!} />;
  if ((params = matchPath('/campaigns/:id/:tab', path)) && isCampaignTab(params.tab!))
    return <CampaignView key={params.id} campaignId={params.id!} tab={params.tab} />;
  if ((params = matchPath('/sessions/:id', path))) return <SessionView sessionId={params.id!} />;
  if (path === '/studies/new') return <NewStudyView />;
  if (path === '/scripts') return <ScriptsView />;
  if ((params = matchPath('/scripts/:id', path))) return <ScriptEditorView key={params.id} scriptId={params.id!} />;
  if (path === '/search') return <SearchView />;
  if (path === '/collections') return <CollectionsView />;
  if ((params = matchPath('/collections/:id', path))) return <CollectionView collectionId={params.id!} />;
  if (path === '/compare') return <CompareView />;
  if (path === '/stakeholder-links') return <StakeholderLinksView />;
  if (path === '/api-keys') return <ApiKeysView />;
  if (path === '/webhooks') return <WebhooksView />;
  if (path === '/members') return <MembersView />;
  if (path === '/billing') return <BillingView />;
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is no page at this address. <Link to="/">Go to the campaigns</Link>.
      </p>
    </>
  );
}

export function App() {
  const { session, resuming, signOut } = useAuth();
  const { path } = useRouter();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const mainRef = useRef<HTMLElement>(null);
  const me = useQuery({ ...trpc.auth.me.queryOptions({}), enabled: Boolean(session) });

  // After a navigation, focus goes to the new page's heading (as a full page load would reset it).
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const heading = document.getElementById('page-title');
    (heading ?? mainRef.current)?.focus();
    window.scrollTo(0, 0);
  }, [path]);

  if (resuming) return <Loading what="Resuming your sign-in" />;
  if (!session) return <SignInView />;

  // Signed out here whatever the server answers: signOut drops the tokens even when its call
  // fails (the refresh token then simply expires), and nothing of this organization stays cached.
  const onSignOut = async () => {
    try {
      await signOut();
    } catch {
      // Nothing to show: the sign-in form is what the member sees next either way.
    } finally {
      queryClient.clear();
    }
  };

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-name">Research dashboard</span>
          <span className="muted org-name">{session.organization.name}</span>
        </div>
        <div className="who">
          <span className="muted">
            {session.member.name ?? session.member.email}
            {me.data ? ` · ${me.data.member.role}` : ''}
          </span>
          <button type="button" className="secondary" onClick={() => void onSignOut()}>
            Sign out
          </button>
        </div>
      </header>
      <nav aria-label="Main" className="mainnav">
        <ul>
          {NAV.map((item) => {
            const active = item.match.some((pattern) => (pattern === '/' ? path === '/' : matchPath(pattern, path)));
            return (
              <li key={item.to}>
                <Link to={item.to} aria-current={active ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={mainRef}>
        <Suspense fallback={<Loading what="Loading the page" />}>{route(path)}</Suspense>
      </main>
    </>
  );
}
