import { ErrorNote } from '../ui';
import { RestProblem } from '../participants/bulk-upload';
import { problemOf } from '../trpc';

/**
 * What a refusal means for the researcher, in words, for the codes a campaign page meets. The
 * server's own message stays (it names the thing); this says what to do about it.
 */
export const PROBLEM_ADVICE: Record<string, string> = {
  CAMPAIGN_NOT_ACTIVE: 'The campaign is paused or archived, so no one can be invited. Resume it first (an archived campaign cannot be resumed).',
  CAMPAIGN_ARCHIVED: 'The campaign is archived, which is final: it can no longer be changed, paused or resumed.',
  SCRIPT_NOT_PUBLISHED: 'The script has no published version yet. Publish it in the study builder, then choose it here.',
  SCRIPT_ARCHIVED: 'The script is archived and cannot be used by a campaign. Choose another script.',
  INVITE_EXPIRED: 'The invite has expired. Invite the participant again to give them a new link.',
  INVITE_CANCELLED: 'The invite was cancelled; its link no longer works.',
  INVITE_ALREADY_USED: 'The participant has already started or finished the interview.',
  INVITE_HAS_NO_EMAIL: 'The invite came from a share link and has no email address to send to.',
  INSUFFICIENT_PERMISSIONS: 'Your role does not allow this. Ask an owner or admin of the organization.',
  IDEMPOTENCY_KEY_IN_USE: 'The same batch is still being processed by an earlier attempt. Wait a moment and try again.',
};

/** The messages of the fields at `path` (or under it) in a failed call's `details.fields`. */
export function fieldMessages(error: unknown, path: string): string[] {
  if (!error) return [];
  return problemOf(error)
    .fields.filter((field) => field.path === path || field.path.startsWith(`${path}.`))
    .map((field) => field.message);
}

/** A failed call in words: the server's message and fields (ErrorNote), and what to do about it when the code is one a researcher meets. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof RestProblem) return <RestProblemNote problem={error} />;
  const advice = PROBLEM_ADVICE[problemOf(error).appCode ?? ''];
  return (
    <>
      <ErrorNote error={error} />
      {advice && <p className="advice">{advice}</p>}
    </>
  );
}

/** The messages for one field, beside its input (and tied to it by `id` for aria-describedby). */
export function FieldError({ id, messages }: { id: string; messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p className="field-error" id={id}>
      {messages.join('; ')}
    </p>
  );
}

/** A REST refusal (the participants import posts to /v1): the same note as a tRPC one. */
function RestProblemNote({ problem }: { problem: RestProblem }) {
  const fields = Array.isArray(problem.details.fields) ? (problem.details.fields as { path: string; message: string }[]) : [];
  const advice = PROBLEM_ADVICE[problem.appCode ?? ''];
  return (
    <>
      <div className="error" role="alert">
        <strong>Error:</strong> {problem.message}
        {fields.length > 0 && (
          <ul>
            {fields.map((field) => (
              <li key={field.path}>
                <code>{field.path}</code>: {field.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      {advice && <p className="advice">{advice}</p>}
    </>
  );
}
