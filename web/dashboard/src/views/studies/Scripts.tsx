import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SCRIPT_STATUSES, type TScript } from '../../../../../shared/schemas/scripts';
import { Link } from '../../router';
import { useTRPC } from '../../trpc';
import { ErrorNote, formatDateTime, Loading, PageHeading } from '../../ui';

/** A script's state in a few words: which version campaigns use, and whether a draft is open. */
export function scriptState(script: Pick<TScript, 'status' | 'version' | 'publishedVersion'>): string {
  if (script.status === 'archived') return 'archived';
  if (script.publishedVersion === null) return `draft v${script.version}`;
  if (script.version > script.publishedVersion) return `v${script.publishedVersion} published, draft v${script.version} open`;
  return `v${script.publishedVersion} published`;
}

/** `/scripts`: the organization's interview scripts with their state, each linking to its editor. */
export function ScriptsView() {
  const trpc = useTRPC();
  const [status, setStatus] = useState<'' | (typeof SCRIPT_STATUSES)[number]>('');
  const [search, setSearch] = useState('');
  const scripts = useQuery(trpc.scripts.list.queryOptions({ limit: 100, ...(status ? { status } : {}), ...(search ? { search } : {}) }));
  return (
    <>
      <PageHeading title="Scripts">
        <Link to="/studies/new" className="button-link">
          New study
        </Link>
      </PageHeading>
      <p className="muted">A script is what the AI interviewer asks. Campaigns use its published version.</p>
      <div className="toolbar">
        <label htmlFor="script-filter">Filter by name</label>
        <input id="script-filter" type="search" value={search} onChange={(event) => setSearch(event.target.value)} maxLength={100} />
        <label htmlFor="script-status">Status</label>
        <select id="script-status" value={status} onChange={(event) => setStatus(event.target.value as typeof status)}>
          <option value="">Any</option>
          {SCRIPT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
      </div>
      <ErrorNote error={scripts.error} />
      {scripts.isPending ? (
        <Loading what="Loading scripts" />
      ) : scripts.data && scripts.data.data.length === 0 ? (
        <p>
          No scripts {status || search ? 'match' : 'yet'}. <Link to="/studies/new">Start a new study</Link>.
        </p>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Interview scripts">
          <table>
            <caption className="visually-hidden">Interview scripts</caption>
            <thead>
              <tr>
                <th scope="col">Script</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Questions
                </th>
                <th scope="col">Last changed</th>
              </tr>
            </thead>
            <tbody>
              {scripts.data?.data.map((script) => (
                <tr key={script.id}>
                  <th scope="row">
                    <Link to={`/scripts/${script.id}`}>{script.name}</Link>
                  </th>
                  <td>
                    <span className={`badge status-${script.status}`}>{scriptState(script)}</span>
                  </td>
                  <td className="num">{script.questions.length}</td>
                  <td>{formatDateTime(script.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
