import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { INTERVIEW_LANGUAGES } from '../../../../shared/languages';
import { type TCampaign, ZCreateCampaignInput, ZUpdateCampaignInput } from '../../../../shared/schemas/campaigns';
import { type RouterInputs, useTRPC } from '../trpc';
import { FieldError, fieldMessages, Problem } from './problems';

type CreateInput = RouterInputs['campaigns']['create'];
type UpdateInput = RouterInputs['campaigns']['update'];

/** The form's text as typed: empty means "not set" (the server's default). */
interface Values {
  name: string;
  participantTitle: string;
  description: string;
  scriptId: string;
  language: string;
  voice: string;
  requireConsent: boolean;
  maxDurationMinutes: string;
  expiresIn: string;
  emailTemplate: string;
}

function valuesOf(campaign: TCampaign | undefined, scriptId: string | undefined): Values {
  return {
    name: campaign?.name ?? '',
    participantTitle: campaign?.participantTitle ?? '',
    description: campaign?.description ?? '',
    scriptId: campaign?.scriptId ?? scriptId ?? '',
    language: campaign?.settings.language ?? '',
    voice: campaign?.settings.voice ?? '',
    requireConsent: campaign?.settings.requireConsent ?? false,
    maxDurationMinutes: campaign?.settings.maxDuration ? String(campaign.settings.maxDuration / 60) : '',
    expiresIn: campaign?.inviteDefaults.expiresIn ?? '',
    emailTemplate: campaign?.inviteDefaults.emailTemplate ?? '',
  };
}

/** Minutes as typed → seconds the API takes; text that is not a number is passed on for the schema to refuse. */
function secondsOf(minutes: string): number | undefined {
  if (minutes.trim() === '') return undefined;
  const value = Number(minutes);
  return Number.isFinite(value) ? Math.round(value * 60) : Number.NaN;
}

const blankToUndefined = (value: string) => (value.trim() === '' ? undefined : value.trim());
const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());

function createInput(values: Values): CreateInput {
  const maxDuration = secondsOf(values.maxDurationMinutes);
  return {
    name: values.name.trim(),
    participantTitle: blankToUndefined(values.participantTitle),
    description: blankToUndefined(values.description),
    scriptId: values.scriptId,
    settings: {
      ...(values.language ? { language: values.language } : {}),
      ...(values.voice.trim() ? { voice: values.voice.trim() } : {}),
      ...(maxDuration !== undefined ? { maxDuration } : {}),
      requireConsent: values.requireConsent,
    },
    inviteDefaults: {
      ...(values.expiresIn.trim() ? { expiresIn: values.expiresIn.trim() } : {}),
      ...(values.emailTemplate.trim() ? { emailTemplate: values.emailTemplate.trim() } : {}),
    },
  };
}

/** An update sends every field of the form: an emptied field is `null`, which removes the setting. */
function updateInput(campaignId: string, values: Values): UpdateInput {
  return {
    campaignId,
    name: values.name.trim(),
    participantTitle: blankToNull(values.participantTitle),
    description: blankToNull(values.description),
    scriptId: values.scriptId,
    settings: {
      language: values.language || null,
      voice: blankToNull(values.voice),
      maxDuration: secondsOf(values.maxDurationMinutes) ?? null,
      requireConsent: values.requireConsent,
    },
    inviteDefaults: { expiresIn: blankToNull(values.expiresIn), emailTemplate: blankToNull(values.emailTemplate) },
  };
}

/** The same schema the API validates with, run before sending: the same field messages, without a round trip. */
function localProblems(schema: typeof ZCreateCampaignInput | typeof ZUpdateCampaignInput, input: unknown): { path: string; message: string }[] {
  const checked = schema.safeParse(input);
  if (checked.success) return [];
  return checked.error.issues.map((issue) => {
    const path = issue.path.join('.');
    // The schema's "too small" on an empty select reads as jargon; in the form it is a choice not yet made.
    return { path, message: path === 'scriptId' && issue.code === 'too_small' ? 'Choose a published script' : issue.message };
  });
}

/**
 * A campaign's settings: the form of a new campaign and of an existing one's settings. The
 * maximum duration is typed in minutes (the API takes seconds: 1 to 240 minutes).
 */
export function CampaignForm({
  campaign,
  initialScriptId,
  submitLabel,
  pending,
  error,
  onSubmitCreate,
  onSubmitUpdate,
}: {
  campaign?: TCampaign;
  /** A new campaign's script chosen in advance (the script editor's "Run it as a campaign"). */
  initialScriptId?: string;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmitCreate?: (input: CreateInput) => void;
  onSubmitUpdate?: (input: UpdateInput) => void;
}) {
  const trpc = useTRPC();
  const scripts = useQuery(trpc.scripts.list.queryOptions({ limit: 100 }));
  const [values, setValues] = useState<Values>(() => valuesOf(campaign, initialScriptId));
  const [local, setLocal] = useState<{ path: string; message: string }[]>([]);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((current) => ({ ...current, [key]: value }));
  // Only scripts with a published version can run a campaign; the current one stays listed whatever it is now.
  const usable = (scripts.data?.data ?? []).filter(
    (script) => (script.publishedVersion !== null && script.status !== 'archived') || script.id === campaign?.scriptId,
  );

  const messages = (path: string) => [
    ...local.filter((field) => field.path === path || field.path.startsWith(`${path}.`)).map((field) => field.message),
    ...fieldMessages(error, path),
  ];
  const minutesMessages = () => messages('settings.maxDuration').map((message) => `${message} (seconds: 1 to 240 minutes)`);
  const describedBy = (id: string, path: string) => (messages(path).length > 0 ? `${id}-error` : undefined);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (campaign) {
      const input = updateInput(campaign.id, values);
      const problems = localProblems(ZUpdateCampaignInput, input);
      setLocal(problems);
      if (problems.length === 0) onSubmitUpdate?.(input);
    } else {
      const input = createInput(values);
      const problems = localProblems(ZCreateCampaignInput, input);
      setLocal(problems);
      if (problems.length === 0) onSubmitCreate?.(input);
    }
  };

  const text = (
    id: string,
    label: string,
    key: 'name' | 'participantTitle' | 'voice' | 'expiresIn' | 'emailTemplate',
    path: string,
    hint?: string,
    required = false,
  ) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="muted small hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <input
        id={id}
        value={values[key]}
        required={required}
        onChange={(event) => set(key, event.target.value)}
        aria-invalid={messages(path).length > 0 || undefined}
        aria-describedby={[hint ? `${id}-hint` : '', describedBy(id, path) ?? ''].filter(Boolean).join(' ') || undefined}
      />
      <FieldError id={`${id}-error`} messages={messages(path)} />
    </div>
  );

  return (
    <form className="panel campaign-form" onSubmit={submit} noValidate>
      {text('campaign-name', 'Name', 'name', 'name', 'Internal: only your team sees it.', true)}
      {text(
        'campaign-participant-title',
        'Title for participants',
        'participantTitle',
        'participantTitle',
        'What participants see on the interview page and in the email. Empty: they see the name.',
      )}
      <div className="field">
        <label htmlFor="campaign-description">Description</label>
        <textarea
          id="campaign-description"
          rows={2}
          value={values.description}
          onChange={(event) => set('description', event.target.value)}
          aria-describedby={describedBy('campaign-description', 'description')}
        />
        <FieldError id="campaign-description-error" messages={messages('description')} />
      </div>
      <div className="field">
        <label htmlFor="campaign-script">Script</label>
        {scripts.data && usable.length === 0 && (
          <p className="muted small" id="campaign-script-hint">
            No script is published yet. Build and publish one in the study builder first.
          </p>
        )}
        <select
          id="campaign-script"
          value={values.scriptId}
          onChange={(event) => set('scriptId', event.target.value)}
          aria-describedby={describedBy('campaign-script', 'scriptId')}
        >
          <option value="">Choose a published script…</option>
          {usable.map((script) => (
            <option key={script.id} value={script.id}>
              {script.name} (version {script.publishedVersion ?? script.version}
              {script.publishedVersion === null ? ', not published' : ''})
            </option>
          ))}
        </select>
        <FieldError id="campaign-script-error" messages={messages('scriptId')} />
      </div>
      <fieldset>
        <legend>Interview</legend>
        <div className="field">
          <label htmlFor="campaign-language">Language</label>
          <select
            id="campaign-language"
            value={values.language}
            onChange={(event) => set('language', event.target.value)}
            aria-describedby={describedBy('campaign-language', 'settings.language')}
          >
            <option value="">The script's language</option>
            {INTERVIEW_LANGUAGES.map((language) => (
              <option key={language} value={language}>
                {LANGUAGE_NAMES[language] ?? language}
              </option>
            ))}
          </select>
          <FieldError id="campaign-language-error" messages={messages('settings.language')} />
        </div>
        {text('campaign-voice', 'Voice', 'voice', 'settings.voice', 'A voice of the server’s speech synthesis; empty: the default voice.')}
        <div className="field">
          <label htmlFor="campaign-max-duration">Maximum duration (minutes)</label>
          <input
            id="campaign-max-duration"
            inputMode="numeric"
            value={values.maxDurationMinutes}
            onChange={(event) => set('maxDurationMinutes', event.target.value)}
            aria-invalid={messages('settings.maxDuration').length > 0 || undefined}
            aria-describedby={describedBy('campaign-max-duration', 'settings.maxDuration')}
          />
          <FieldError id="campaign-max-duration-error" messages={minutesMessages()} />
        </div>
        <label className="choice">
          <input type="checkbox" checked={values.requireConsent} onChange={(event) => set('requireConsent', event.target.checked)} />
          Participants must give consent before the interview starts
        </label>
      </fieldset>
      <fieldset>
        <legend>Invite defaults</legend>
        {text(
          'campaign-expires-in',
          'Invites expire after',
          'expiresIn',
          'inviteDefaults.expiresIn',
          'A number and m, h, d or w, such as 7d or 2w. Empty: 7 days.',
        )}
        {text(
          'campaign-email-template',
          'Email template',
          'emailTemplate',
          'inviteDefaults.emailTemplate',
          'The id of the invitation email template. Empty: default.',
        )}
      </fieldset>
      <Problem error={error} />
      {local.length > 0 && (
        <p className="error" role="alert">
          Some fields need a change before saving: see the messages beside them.
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? 'Saving…' : submitLabel}
      </button>
    </form>
  );
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', nl: 'Dutch', de: 'German', fr: 'French', es: 'Spanish' };
