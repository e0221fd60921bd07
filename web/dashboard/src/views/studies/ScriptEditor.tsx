import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { FieldError } from '../../../../../shared/error-codes';
import { INTERVIEW_LANGUAGES } from '../../../../../shared/languages';
import { SCRIPT_LIMITS, type TScript, type TScriptMedia, type TScriptPreview } from '../../../../../shared/schemas/scripts';
import { useAuth } from '../../auth';
import { Link, useLeaveWarning } from '../../router';
import { problemOf, useTRPC } from '../../trpc';
import { ErrorNote, formatDateTime, Loading, PageHeading } from '../../ui';
import { FieldProblem, fieldProps, TextField } from './fields';
import { QuestionEditor } from './QuestionEditor';
import { QuestionMedia } from './QuestionMedia';
import { downloadJson, exportFilename } from './script-files';
import {
  byPath,
  checkDraft,
  fieldId,
  isTouched,
  moveItem,
  newQuestion,
  placeOf,
  problemWords,
  questionInputsOf,
  sameContent,
  sameDetails,
  type ScriptDraft,
  scriptDraftOf,
  settingsPatchOf,
  settingsValuesOf,
} from './script-form';
import { Versions } from './VersionDiff';

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', nl: 'Dutch', de: 'German', fr: 'French', es: 'Spanish' };

/** Whether the newest version is an open draft (edits change it) rather than published (edits open a new one). */
function draftIsOpen(script: TScript): boolean {
  return script.publishedVersion === null || script.version > script.publishedVersion;
}

/** The script editor at `/scripts/:id`: loads the script, then edits it. */
export function ScriptEditorView({ scriptId }: { scriptId: string }) {
  const trpc = useTRPC();
  const script = useQuery(trpc.scripts.get.queryOptions({ scriptId }));
  if (script.error) {
    return (
      <>
        <PageHeading title="Script" />
        <ErrorNote error={script.error} />
        <p>
          <Link to="/scripts">Back to the scripts</Link>
        </p>
      </>
    );
  }
  if (!script.data) return <Loading what="Loading the script" />;
  return <ScriptEditor script={script.data} />;
}

function ScriptEditor({ script }: { script: TScript }) {
  const trpc = useTRPC();
  const { client } = useAuth();
  const queryClient = useQueryClient();
  const scriptId = script.id;
  const versions = useQuery(trpc.scripts.listVersions.queryOptions({ scriptId, limit: 100 }));
  const media = useQuery(trpc.scripts.listMedia.queryOptions({ scriptId, limit: 100 }));

  const [saved, setSaved] = useState(() => scriptDraftOf(script));
  const [draft, setDraft] = useState(saved);
  const [changelog, setChangelog] = useState('');
  const [serverFields, setServerFields] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  // Set by a publish, so its notice offers the next step: a campaign on this script.
  const [publishedNow, setPublishedNow] = useState(false);
  const [preview, setPreview] = useState<TScriptPreview | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  const archived = script.status === 'archived';
  const openDraft = draftIsOpen(script);
  const contentChanged = !sameContent(draft, saved);
  const detailsChanged = !sameDetails(draft, saved);
  const dirty = contentChanged || detailsChanged;
  // A note is asked for when saving will open a new version (the newest is published).
  const asksNote = !openDraft && contentChanged;
  const localFields = useMemo(() => checkDraft(scriptId, draft, asksNote ? changelog : undefined), [scriptId, draft, asksNote, changelog]);
  // Problems show for fields the researcher has touched, and all of them once a save is tried:
  // a box just added, or two option boxes that come with a type, are not mistakes yet.
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [attempted, setAttempted] = useState(false);
  const shownFields = attempted ? localFields : localFields.filter((field) => isTouched(field.path, touched));
  const errors = useMemo(() => byPath([...shownFields, ...serverFields]), [shownFields, serverFields]);
  const invalid = localFields.length > 0;
  // A save tried shows every problem until they are all fixed; then new boxes are quiet again.
  useEffect(() => {
    if (attempted && !invalid) setAttempted(false);
  }, [attempted, invalid]);
  const touch = (event: { target: EventTarget }) => {
    const id = (event.target as HTMLElement).id;
    if (id.startsWith('field-') && !touched.has(id)) setTouched(new Set([...touched, id]));
  };

  const edit = (next: ScriptDraft) => {
    setDraft(next);
    setServerFields([]);
    setDone('');
    setPublishedNow(false);
  };

  // Leaving with unsaved changes asks first: through the app's links, and on a reload or a closed tab.
  useLeaveWarning(dirty ? 'This script has unsaved changes. Leave without saving them?' : null);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  // After a move, focus stays on the moved question's button that was used (or its other one at an end).
  useEffect(() => {
    const target = focusAfterMove.current;
    if (!target) return;
    focusAfterMove.current = null;
    const [key, direction] = target.split(':');
    const list = listRef.current;
    const wanted = list?.querySelector<HTMLButtonElement>(`[data-move="${key}:${direction}"]`);
    const other = list?.querySelector<HTMLButtonElement>(`[data-move="${key}:${direction === 'up' ? 'down' : 'up'}"]`);
    (wanted && !wanted.disabled ? wanted : other)?.focus();
  }, [draft.questions]);

  const move = (from: number, to: number, via?: 'up' | 'down') => {
    if (to < 0 || to >= draft.questions.length || from === to) return;
    const moved = draft.questions[from]!;
    if (via) focusAfterMove.current = `${moved.key}:${via}`;
    edit({ ...draft, questions: moveItem(draft.questions, from, to) });
    setAnnouncement(`Question “${moved.text || moved.id}” moved to position ${to + 1} of ${draft.questions.length}.`);
  };

  const refreshScript = (next: TScript) => {
    queryClient.setQueryData(trpc.scripts.get.queryKey({ scriptId }), next);
    void queryClient.invalidateQueries(trpc.scripts.listVersions.queryFilter({ scriptId }));
    void queryClient.invalidateQueries(trpc.scripts.list.queryFilter());
    // The saved content as the API stored it (trimmed, defaults applied), on the form's own keys.
    const stored = scriptDraftOf(next);
    const keyed =
      stored.questions.length === draft.questions.length
        ? { ...stored, questions: stored.questions.map((question, i) => ({ ...question, key: draft.questions[i]!.key })) }
        : stored;
    setSaved(keyed);
    setDraft(keyed);
  };

  /** Saves what changed: details in place; content into the open draft, or as a new version when the newest is published. */
  const save = async (): Promise<TScript> => {
    if (invalid) {
      setAttempted(true);
      throw new Error(`Fix the ${localFields.length === 1 ? 'problem' : `${localFields.length} problems`} listed above the save buttons first.`);
    }
    if (!dirty) return script;
    setServerFields([]);
    let result = script;
    const settingsPatch = settingsPatchOf(settingsValuesOf(saved), settingsValuesOf(draft));
    const content = { systemPrompt: draft.systemPrompt, questions: questionInputsOf(draft), ...(settingsPatch ? { settings: settingsPatch } : {}) };
    try {
      if (detailsChanged || (contentChanged && openDraft)) {
        result = await client.scripts.update.mutate({
          scriptId,
          ...(detailsChanged ? { name: draft.name, description: draft.description.trim() ? draft.description : null } : {}),
          ...(contentChanged && openDraft ? content : {}),
        });
      }
      if (contentChanged && !openDraft) {
        result = await client.scripts.createVersion.mutate({ scriptId, ...(changelog.trim() ? { changelog: changelog.trim() } : {}), ...content });
        setChangelog('');
      }
      refreshScript(result);
      return result;
    } catch (error) {
      setServerFields(problemOf(error).fields);
      throw error;
    }
  };

  /** Runs one of the page's actions: one at a time, its error shown in words. */
  const run = async (name: string, action: () => Promise<string | void>) => {
    setBusy(name);
    setActionError(null);
    setDone('');
    setPublishedNow(false);
    try {
      const message = await action();
      if (message) setDone(message);
    } catch (error) {
      setActionError(error);
    } finally {
      setBusy(null);
    }
  };

  const onSave = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      const result = await save();
      return openDraft ? `Draft v${result.version} saved.` : `Saved as a new draft, v${result.version}.`;
    });
  };

  const publish = () =>
    void run('publish', async () => {
      await save();
      const published = await client.scripts.publish.mutate({ scriptId });
      refreshScript(published);
      setPublishedNow(true);
      return `v${published.version} published: new campaigns use it.`;
    });

  const exportScript = () =>
    void run('export', async () => {
      const exported = await client.scripts.export.query({ scriptId });
      downloadJson(exported, exportFilename(exported.script.name, exported.source.version));
      return `Exported v${exported.source.version} as a JSON file.`;
    });

  const openPreview = () =>
    void run('preview', async () => {
      setPreview(null);
      const result = await save();
      const created = await client.scripts.createPreview.mutate({ scriptId, version: result.version });
      setPreview(created);
      window.open(created.url, '_blank', 'noopener');
    });

  const archive = () => {
    if (!window.confirm(`Archive “${script.name}”? It can then no longer be changed or used by new campaigns.`)) return;
    void run('archive', async () => {
      refreshScript(await client.scripts.archive.mutate({ scriptId }));
      return 'The script is archived.';
    });
  };

  /** The API attaches media only to questions of the newest saved version: unsaved changes are saved first. */
  const ensureSaved = async (): Promise<boolean> => {
    if (!dirty) return true;
    if (invalid) {
      setAttempted(true);
      throw new Error('Fix the problems listed above the save buttons first: a question is saved before media are attached to it.');
    }
    await save();
    return true;
  };

  const removeMedia = async (item: TScriptMedia) => {
    await client.scripts.deleteMedia.mutate({ scriptId, mediaId: item.id });
    await queryClient.invalidateQueries(trpc.scripts.listMedia.queryFilter({ scriptId }));
  };
  const mediaChanged = () => void queryClient.invalidateQueries(trpc.scripts.listMedia.queryFilter({ scriptId }));

  const allMedia = media.data?.data ?? [];
  const savedIds = new Set(saved.questions.map((question) => question.id));
  const unattached = allMedia.filter((item) => item.questionId !== null && !draft.questions.some((question) => question.id === item.questionId));

  // Drag and drop: a question is draggable only by its handle, so text in its inputs stays selectable.
  const [armed, setArmed] = useState<string | null>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const dragProps = (index: number, key: string) => ({
    draggable: armed === key,
    onDragStart: (event: DragEvent) => {
      setDragFrom(index);
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('text/plain', key);
    },
    onDragOver: (event: DragEvent) => {
      if (dragFrom === null) return;
      event.preventDefault();
      setDropAt(index);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      if (dragFrom !== null) move(dragFrom, index);
      setDragFrom(null);
      setDropAt(null);
      setArmed(null);
    },
    onDragEnd: () => {
      setDragFrom(null);
      setDropAt(null);
      setArmed(null);
    },
  });

  const statusText = archived
    ? 'Archived: read only.'
    : script.publishedVersion === null
      ? `Draft v${script.version}, not published yet.`
      : openDraft
        ? `v${script.publishedVersion} is published; draft v${script.version} is open.`
        : `v${script.version} is published. Saving changes opens draft v${script.version + 1}.`;

  return (
    <>
      <p className="crumbs">
        <Link to="/scripts">Scripts</Link> › {script.name}
      </p>
      <PageHeading title={script.name}>
        <button type="button" className="secondary" disabled={busy !== null || archived} onClick={openPreview}>
          {busy === 'preview' ? 'Opening the preview…' : 'Preview as participant'}
        </button>
        <button type="button" className="secondary" disabled={busy !== null} onClick={exportScript}>
          Export JSON
        </button>
        <button type="button" className="danger secondary" disabled={busy !== null || archived} onClick={archive}>
          Archive
        </button>
      </PageHeading>
      <p className="muted">
        <span className={`badge status-${script.status}`}>{script.status}</span> {statusText} Last changed {formatDateTime(script.updatedAt)}.
      </p>
      {preview && (
        <p role="status" className="notice">
          Preview of v{preview.version}:{' '}
          <a href={preview.url} target="_blank" rel="noopener noreferrer">
            open the interview as a participant
          </a>{' '}
          (a new tab; it costs no credits and is left out of results; valid until {formatDateTime(preview.expiresAt)}).
        </p>
      )}

      <form onSubmit={onSave} onBlur={touch} onChange={touch} noValidate className="script-form">
        <fieldset disabled={archived} className="plain">
          <section className="panel" aria-labelledby="about-title">
            <h2 id="about-title">Study</h2>
            <TextField path="name" label="Name" value={draft.name} onChange={(name) => edit({ ...draft, name })} errors={errors} />
            <TextField
              path="description"
              label="Description (optional, for your team)"
              value={draft.description}
              onChange={(description) => edit({ ...draft, description })}
              errors={errors}
              multiline
              rows={2}
            />
            <TextField
              path="systemPrompt"
              label="System prompt"
              hint="How the AI interviewer behaves: its role, tone and what it must not do."
              value={draft.systemPrompt}
              onChange={(systemPrompt) => edit({ ...draft, systemPrompt })}
              errors={errors}
              multiline
              rows={5}
            />
            <fieldset>
              <legend>Interview settings</legend>
              <div className="field-grid">
                <div className="field">
                  <label htmlFor={fieldId('settings.language')}>Language</label>
                  <select
                    {...fieldProps('settings.language', errors)}
                    value={draft.settings.language}
                    onChange={(event) => edit({ ...draft, settings: { ...draft.settings, language: event.target.value } })}
                  >
                    <option value="">Not set (the campaign's or the participant's)</option>
                    {[
                      ...INTERVIEW_LANGUAGES,
                      ...(draft.settings.language && !(INTERVIEW_LANGUAGES as readonly string[]).includes(draft.settings.language)
                        ? [draft.settings.language]
                        : []),
                    ].map((tag) => (
                      <option key={tag} value={tag}>
                        {LANGUAGE_NAMES[tag] ? `${LANGUAGE_NAMES[tag]} (${tag})` : tag}
                      </option>
                    ))}
                  </select>
                  <FieldProblem path="settings.language" errors={errors} />
                </div>
                <TextField
                  path="settings.maxFollowUps"
                  label="Most follow-ups per question"
                  hint={`0 to ${SCRIPT_LIMITS.maxFollowUps}; empty: the service's default`}
                  type="number"
                  inputMode="numeric"
                  value={draft.settings.maxFollowUps}
                  onChange={(maxFollowUps) => edit({ ...draft, settings: { ...draft.settings, maxFollowUps } })}
                  errors={errors}
                />
              </div>
            </fieldset>
          </section>

          <section aria-labelledby="questions-title">
            <h2 id="questions-title">Questions</h2>
            <p className="muted small">Asked in this order. Drag a question by its handle, or use its Up and Down buttons.</p>
            <FieldProblem path="questions" errors={errors} />
            <p role="status" className="visually-hidden">
              {announcement}
            </p>
            <ol className="question-list" ref={listRef}>
              {draft.questions.map((question, index) => {
                const questionMedia = allMedia.filter((item) => item.questionId === question.id);
                return (
                  <li
                    key={question.key}
                    className={`question-card${dropAt === index && dragFrom !== index ? ' drop-target' : ''}${dragFrom === index ? ' dragging' : ''}`}
                    {...dragProps(index, question.key)}
                  >
                    <QuestionEditor
                      question={question}
                      index={index}
                      count={draft.questions.length}
                      errors={errors}
                      idLocked={questionMedia.length > 0 && savedIds.has(question.id)}
                      onChange={(next) => edit({ ...draft, questions: draft.questions.map((other) => (other.key === question.key ? next : other)) })}
                      onMove={(delta) => move(index, index + delta, delta < 0 ? 'up' : 'down')}
                      onRemove={() => {
                        edit({ ...draft, questions: draft.questions.filter((other) => other.key !== question.key) });
                        setAnnouncement(`Question ${index + 1} removed.`);
                      }}
                      dragHandle={
                        <span
                          className="drag-handle"
                          title="Drag to reorder"
                          aria-hidden="true"
                          onMouseDown={() => setArmed(question.key)}
                          onMouseUp={() => setArmed(null)}
                        >
                          ⠿
                        </span>
                      }
                      media={
                        <QuestionMedia
                          scriptId={scriptId}
                          questionId={question.id}
                          label={`question ${index + 1}`}
                          media={questionMedia}
                          disabled={archived || busy !== null}
                          ensureSaved={ensureSaved}
                          onChanged={mediaChanged}
                          onRemove={removeMedia}
                        />
                      }
                    />
                  </li>
                );
              })}
            </ol>
            <button
              type="button"
              className="secondary"
              disabled={draft.questions.length >= SCRIPT_LIMITS.maxQuestions}
              onClick={() => {
                const added = newQuestion(draft.questions);
                edit({ ...draft, questions: [...draft.questions, added] });
                // The new question's text field, once it is rendered.
                setTimeout(() => document.getElementById(fieldId(`questions[${draft.questions.length}].text`))?.focus(), 0);
              }}
            >
              Add a question
            </button>
            <ErrorNote error={media.error} />
            {unattached.length > 0 && (
              <p className="muted small">
                {unattached.length} media {unattached.length === 1 ? 'file belongs' : 'files belong'} to questions no longer in the script (
                {unattached.map((item) => item.filename).join(', ')}).
              </p>
            )}
          </section>

          <div className="save-bar">
            {asksNote && (
              <TextField
                path="changelog"
                label={`Note for draft v${script.version + 1} (optional)`}
                value={changelog}
                onChange={setChangelog}
                errors={errors}
              />
            )}
            {shownFields.length > 0 && (
              <div className="error save-problems" role="status">
                <strong>{shownFields.length === 1 ? '1 problem' : `${shownFields.length} problems`} to fix before saving:</strong>
                <ul>
                  {shownFields.map((field) => (
                    <li key={`${field.path}:${field.message}`}>
                      <a href={`#${fieldId(field.path)}`}>{placeOf(field.path)}</a>: {problemWords(field.message)}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            <ErrorNote error={actionError} />
            {done && (
              <p role="status" className="notice">
                {done}
                {publishedNow && (
                  <>
                    {' '}
                    <Link to={`/campaigns/new?scriptId=${encodeURIComponent(scriptId)}`}>Run it as a campaign</Link>
                  </>
                )}
              </p>
            )}
            <div className="row">
              <button type="submit" disabled={busy !== null || !dirty}>
                {busy === 'save' ? 'Saving…' : openDraft || !contentChanged ? 'Save draft' : `Save as draft v${script.version + 1}`}
              </button>
              <button type="button" className="secondary" disabled={busy !== null || (!dirty && !openDraft)} onClick={publish}>
                {busy === 'publish' ? 'Publishing…' : dirty ? 'Save and publish' : `Publish v${script.version}`}
              </button>
              <span className="muted small">{dirty ? 'Unsaved changes.' : 'All changes saved.'}</span>
            </div>
          </div>
        </fieldset>
      </form>

      {versions.data ? (
        <Versions script={script} versions={versions.data.data} />
      ) : versions.error ? (
        <ErrorNote error={versions.error} />
      ) : (
        <Loading what="Loading the versions" />
      )}
    </>
  );
}
