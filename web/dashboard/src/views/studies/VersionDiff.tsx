import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TScript, TScriptVersion } from '../../../../../shared/schemas/scripts';
import { useTRPC } from '../../trpc';
import { ErrorNote, formatDateTime, Loading } from '../../ui';
import { describeDiff, diffScripts, isEmptyDiff } from './script-diff';

/** How a version is called in the list: draft, the published one campaigns use, or an earlier one. */
export function versionStatus(script: Pick<TScript, 'status' | 'publishedVersion'>, version: Pick<TScriptVersion, 'version' | 'status'>): string {
  if (version.status === 'draft') return script.status === 'archived' ? 'draft (script archived)' : 'draft';
  if (version.version === script.publishedVersion) return script.status === 'archived' ? 'published (script archived)' : 'published, in use';
  return 'published earlier';
}

/** The script's versions, newest first, and "what changed" between any two of them. */
export function Versions({ script, versions }: { script: TScript; versions: TScriptVersion[] }) {
  return (
    <section aria-labelledby="versions-title" className="panel">
      <h2 id="versions-title">Versions</h2>
      {/* Focusable: on a narrow screen the table scrolls sideways in its box, by keyboard too. */}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Versions of this script">
        <table>
          <caption className="visually-hidden">Versions of this script, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Questions
              </th>
              <th scope="col">Created</th>
              <th scope="col">Published</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((version) => (
              <tr key={version.version}>
                <th scope="row">v{version.version}</th>
                <td>
                  <span className={`badge version-${version.status}`}>{versionStatus(script, version)}</span>
                </td>
                <td className="num">{version.questions.length}</td>
                <td>{formatDateTime(version.createdAt)}</td>
                <td>{formatDateTime(version.publishedAt)}</td>
                <td>{version.changelog ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {versions.length > 1 ? (
        <VersionDiff scriptId={script.id} versions={versions} />
      ) : (
        <p className="muted">Once there is a second version, compare it with the first here.</p>
      )}
    </section>
  );
}

/** Two versions chosen (default: the one before the newest, and the newest), compared in words. */
export function VersionDiff({ scriptId, versions }: { scriptId: string; versions: TScriptVersion[] }) {
  const trpc = useTRPC();
  const newest = versions[0]!.version;
  const [from, setFrom] = useState(versions[1]!.version);
  const [to, setTo] = useState(newest);
  // A new version (saved elsewhere on the page) becomes the default "to".
  useEffect(() => {
    setTo(newest);
    setFrom(versions[1]!.version);
  }, [newest]);
  const fromVersion = useQuery(trpc.scripts.getVersion.queryOptions({ scriptId, version: from }));
  const toVersion = useQuery(trpc.scripts.getVersion.queryOptions({ scriptId, version: to }));
  const diff = fromVersion.data && toVersion.data ? diffScripts(fromVersion.data, toVersion.data) : null;
  const lines = diff ? describeDiff(diff) : [];
  return (
    <div className="version-diff">
      <h3 id="diff-title">What changed</h3>
      <div className="toolbar">
        <label htmlFor="diff-from">From version</label>
        <select id="diff-from" value={from} onChange={(event) => setFrom(Number(event.target.value))}>
          {versions.map((version) => (
            <option key={version.version} value={version.version}>
              v{version.version}
            </option>
          ))}
        </select>
        <label htmlFor="diff-to">to version</label>
        <select id="diff-to" value={to} onChange={(event) => setTo(Number(event.target.value))}>
          {versions.map((version) => (
            <option key={version.version} value={version.version}>
              v{version.version}
            </option>
          ))}
        </select>
      </div>
      <ErrorNote error={fromVersion.error ?? toVersion.error} />
      {!diff ? (
        !(fromVersion.error ?? toVersion.error) && <Loading what="Comparing the versions" />
      ) : (
        <div aria-live="polite" aria-labelledby="diff-title" role="region">
          {from === to ? (
            <p>Choose two different versions.</p>
          ) : isEmptyDiff(diff) ? (
            <p>
              v{from} and v{to} have the same content.
            </p>
          ) : (
            <>
              <p>
                From v{from} to v{to}:
              </p>
              <ul className="diff-list">
                {lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {diff.systemPrompt && (
                <details>
                  <summary>The system prompt before and after</summary>
                  <div className="prompt-compare">
                    <div>
                      <h4>v{from}</h4>
                      <p className="prompt-text">{diff.systemPrompt.from}</p>
                    </div>
                    <div>
                      <h4>v{to}</h4>
                      <p className="prompt-text">{diff.systemPrompt.to}</p>
                    </div>
                  </div>
                </details>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
