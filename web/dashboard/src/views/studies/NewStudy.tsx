import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { FieldError } from '../../../../../shared/error-codes';
import { ZCreateScriptInput } from '../../../../../shared/schemas/scripts';
import { fieldErrorsFromZod } from '../../../../../shared/validation-messages';
import { useAuth } from '../../auth';
import { Link, useRouter } from '../../router';
import { problemOf, useTRPC } from '../../trpc';
import { ErrorNote, PageHeading } from '../../ui';
import { FieldProblem, fieldProps } from './fields';
import { byPath, fieldId } from './script-form';
import { checkImportFile, type ImportCheck } from './script-files';

/** Where a new study's script starts: a prompt and one open question the researcher then rewrites. */
const STARTER = {
  systemPrompt:
    'You are a friendly, neutral research interviewer. Ask the questions in order, one at a time, in plain words. Listen, ask a short follow-up when an answer leaves something open, and never suggest an answer.',
  questions: [{ id: 'q1', text: 'To start, tell me a little about how you use the product today.', type: 'open' as const }],
};

/**
 * `/studies/new`: a study starts as a draft script (named here, then built in the editor), or
 * from a script exported elsewhere (its JSON file, checked before it is sent).
 */
export function NewStudyView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { navigate } = useRouter();
  const [name, setName] = useState('');
  const [tried, setTried] = useState(false);
  const create = useMutation(
    trpc.scripts.create.mutationOptions({
      onSuccess: (script) => {
        void queryClient.invalidateQueries(trpc.scripts.list.queryFilter());
        navigate(`/scripts/${script.id}`);
      },
    }),
  );
  const input = { name, ...STARTER };
  const parsed = ZCreateScriptInput.safeParse(input);
  const localFields = parsed.success ? [] : fieldErrorsFromZod(parsed.error, input).fields;
  const errors = byPath(tried ? [...localFields, ...fieldsOf(create.error)] : fieldsOf(create.error));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (parsed.success) create.mutate(input);
    else document.getElementById(fieldId('name'))?.focus();
  };
  return (
    <>
      <p className="crumbs">
        <Link to="/scripts">Scripts</Link> › New study
      </p>
      <PageHeading title="New study" />
      <p>
        A study starts with its interview script: what the AI interviewer asks, and how. Name it, then write the questions in the editor. Once it is published,
        run it as a campaign.
      </p>
      <form onSubmit={submit} className="panel" noValidate>
        <h2>Start from scratch</h2>
        <label htmlFor={fieldId('name')}>Study name</label>
        <input {...fieldProps('name', errors)} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoComplete="off" />
        <FieldProblem path="name" errors={errors} />
        <p className="muted small">It starts as a draft with one open question; nothing is shown to participants until you publish it and start a campaign.</p>
        <ErrorNote error={create.error} />
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create the draft and edit it'}
        </button>
      </form>
      <ImportScript />
    </>
  );
}

function fieldsOf(error: unknown): FieldError[] {
  return error ? problemOf(error).fields : [];
}

/** Import: a chosen export file, checked with the import's schema (errors by path), then sent. */
function ImportScript() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { navigate } = useRouter();
  const { client } = useAuth();
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const choose = async (file: File | undefined) => {
    setError(null);
    setCheck(file ? await checkImportFile(file) : null);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check?.ok) return;
    setBusy(true);
    setError(null);
    try {
      const script = await client.scripts.import.mutate(check.input);
      void queryClient.invalidateQueries(trpc.scripts.list.queryFilter());
      navigate(`/scripts/${script.id}`);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="panel">
      <h2>Import a script</h2>
      <label htmlFor="import-file">Script file (JSON, as “Export JSON” saves it)</label>
      <input
        id="import-file"
        type="file"
        accept="application/json,.json"
        onChange={(event) => void choose(event.target.files?.[0])}
        aria-describedby={check && !check.ok ? 'import-problems' : undefined}
      />
      {check && !check.ok && (
        <div className="error" role="alert" id="import-problems">
          <strong>{check.message}</strong>
          {check.fields.length > 0 && (
            <ul>
              {check.fields.map((field) => (
                <li key={`${field.path}:${field.message}`}>
                  <code>{field.path || 'the file'}</code>: {field.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {check?.ok && (
        <p role="status">
          “{check.input.script.name}”: {check.input.script.questions.length} {check.input.script.questions.length === 1 ? 'question' : 'questions'}, ready to
          import as a new draft.
        </p>
      )}
      <ErrorNote error={error} />
      <button type="submit" disabled={busy || !check?.ok}>
        {busy ? 'Importing…' : 'Import as a new draft'}
      </button>
    </form>
  );
}
