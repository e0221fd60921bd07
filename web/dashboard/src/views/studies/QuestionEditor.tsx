import type { ReactNode } from 'react';
import { SCRIPT_LIMITS } from '../../../../../shared/schemas/scripts';
import { FieldProblem, fieldProps, TextField } from './fields';
import {
  DEPTH_LABELS,
  FOLLOW_UP_DEPTHS,
  type FieldMessages,
  fieldId,
  followUpsOn,
  type QuestionDraft,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type QuestionType,
} from './script-form';

/**
 * One question of the script: text, type, the type's options or scale, follow-up settings and
 * (below, from the editor) its media. Every input is tied to its API path
 * (`questions[2].scale.max`), so the live check's messages and the server's land beside it.
 */
export function QuestionEditor({
  question,
  index,
  count,
  errors,
  onChange,
  onMove,
  onRemove,
  idLocked,
  media,
  dragHandle,
}: {
  question: QuestionDraft;
  index: number;
  count: number;
  errors: FieldMessages;
  onChange: (question: QuestionDraft) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  /** The id is what media and results refer to: fixed once media are attached. */
  idLocked: boolean;
  media: ReactNode;
  dragHandle: ReactNode;
}) {
  const base = `questions[${index}]`;
  const position = index + 1;
  const set = (patch: Partial<QuestionDraft>) => onChange({ ...question, ...patch });
  const setFollowUp = (patch: Partial<QuestionDraft['followUp']>) => onChange({ ...question, followUp: { ...question.followUp, ...patch } });
  const setScale = (patch: Partial<QuestionDraft['scale']>) => onChange({ ...question, scale: { ...question.scale, ...patch } });
  const setOption = (at: number, value: string) => set({ options: question.options.map((option, i) => (i === at ? value : option)) });
  const questionProblem = errors.get(base);

  return (
    <fieldset className="question" aria-describedby={questionProblem ? `${fieldId(base)}-error` : undefined}>
      <legend>
        Question {position} of {count}
        <span className="muted"> · {QUESTION_TYPE_LABELS[question.type]}</span>
      </legend>
      <div className="question-tools">
        {dragHandle}
        <button
          type="button"
          className="secondary small-button"
          data-move={`${question.key}:up`}
          aria-label={`Move question ${position} up`}
          disabled={index === 0}
          onClick={() => onMove(-1)}
        >
          <span aria-hidden="true">↑</span> Up
        </button>
        <button
          type="button"
          className="secondary small-button"
          data-move={`${question.key}:down`}
          aria-label={`Move question ${position} down`}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
        >
          <span aria-hidden="true">↓</span> Down
        </button>
        <button type="button" className="danger secondary small-button" aria-label={`Remove question ${position}`} disabled={count === 1} onClick={onRemove}>
          Remove
        </button>
      </div>
      <FieldProblem path={base} errors={errors} />

      <TextField
        path={`${base}.text`}
        label={`Question ${position} text`}
        value={question.text}
        onChange={(text) => set({ text })}
        errors={errors}
        multiline
        rows={2}
      />

      <div className="field">
        <label htmlFor={fieldId(`${base}.type`)}>Answer type</label>
        <select {...fieldProps(`${base}.type`, errors)} value={question.type} onChange={(event) => set({ type: event.target.value as QuestionType })}>
          {QUESTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {QUESTION_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        <FieldProblem path={`${base}.type`} errors={errors} />
      </div>

      {question.type === 'multiple_choice' && (
        <fieldset aria-describedby={errors.has(`${base}.options`) ? `${fieldId(`${base}.options`)}-error` : undefined}>
          <legend>Options (2 to {SCRIPT_LIMITS.maxOptions}, each different)</legend>
          <FieldProblem path={`${base}.options`} errors={errors} />
          <ol className="options">
            {question.options.map((option, at) => (
              <li key={at}>
                <div className="option-row">
                  <TextField
                    path={`${base}.options[${at}]`}
                    label={`Option ${at + 1}`}
                    value={option}
                    onChange={(value) => setOption(at, value)}
                    errors={errors}
                  />
                  <button
                    type="button"
                    className="link danger small"
                    aria-label={`Remove option ${at + 1} of question ${position}`}
                    disabled={question.options.length <= 1}
                    onClick={() => set({ options: question.options.filter((_, i) => i !== at) })}
                  >
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ol>
          <button
            type="button"
            className="secondary small-button"
            disabled={question.options.length >= SCRIPT_LIMITS.maxOptions}
            onClick={() => set({ options: [...question.options, ''] })}
          >
            Add an option
          </button>
        </fieldset>
      )}

      {question.type === 'rating' && (
        <fieldset>
          <legend>Rating scale</legend>
          <FieldProblem path={`${base}.scale`} errors={errors} />
          <div className="field-grid">
            <TextField
              path={`${base}.scale.min`}
              label="Lowest rating"
              type="number"
              inputMode="numeric"
              value={question.scale.min}
              onChange={(min) => setScale({ min })}
              errors={errors}
            />
            <TextField
              path={`${base}.scale.max`}
              label="Highest rating"
              type="number"
              inputMode="numeric"
              value={question.scale.max}
              onChange={(max) => setScale({ max })}
              errors={errors}
            />
            <TextField
              path={`${base}.scale.minLabel`}
              label="Label of the lowest (optional)"
              value={question.scale.minLabel}
              onChange={(minLabel) => setScale({ minLabel })}
              errors={errors}
            />
            <TextField
              path={`${base}.scale.maxLabel`}
              label="Label of the highest (optional)"
              value={question.scale.maxLabel}
              onChange={(maxLabel) => setScale({ maxLabel })}
              errors={errors}
            />
          </div>
        </fieldset>
      )}

      <fieldset>
        <legend>Follow-up questions</legend>
        <FieldProblem path={`${base}.followUp`} errors={errors} />
        <label className="choice">
          <input type="checkbox" checked={followUpsOn(question)} onChange={(event) => setFollowUp({ enabled: event.target.checked, enabledSet: true })} />
          Ask follow-up questions about the answer
        </label>
        {followUpsOn(question) && (
          <div className="field-grid">
            <div className="field">
              <label htmlFor={fieldId(`${base}.followUp.depth`)}>Depth</label>
              <select
                {...fieldProps(`${base}.followUp.depth`, errors)}
                value={question.followUp.depth}
                onChange={(event) => setFollowUp({ depth: event.target.value as QuestionDraft['followUp']['depth'] })}
              >
                <option value="">The script's default</option>
                {FOLLOW_UP_DEPTHS.map((depth) => (
                  <option key={depth} value={depth}>
                    {DEPTH_LABELS[depth]}
                  </option>
                ))}
              </select>
              <FieldProblem path={`${base}.followUp.depth`} errors={errors} />
            </div>
            <TextField
              path={`${base}.followUp.maxFollowUps`}
              label="Most follow-ups (optional)"
              hint={`0 to ${SCRIPT_LIMITS.maxFollowUps}; empty: the script's setting`}
              type="number"
              inputMode="numeric"
              value={question.followUp.maxFollowUps}
              onChange={(maxFollowUps) => setFollowUp({ maxFollowUps })}
              errors={errors}
            />
          </div>
        )}
        {followUpsOn(question) && (
          <TextField
            path={`${base}.followUp.prompt`}
            label="What to probe for (optional)"
            hint="Told to the interviewer, e.g. “ask for a concrete example”."
            value={question.followUp.prompt}
            onChange={(prompt) => setFollowUp({ prompt })}
            errors={errors}
            multiline
            rows={2}
          />
        )}
      </fieldset>

      <details className="more" open={errors.has(`${base}.id`) || errors.has(`${base}.maxDuration`) || undefined}>
        <summary>More settings of question {position}</summary>
        <div className="field-grid">
          <TextField
            path={`${base}.id`}
            label="Question ID"
            hint={idLocked ? 'Fixed: media are attached to it.' : 'Used in results and exports; letters, digits, _ . -'}
            value={question.id}
            onChange={(id) => set({ id })}
            errors={errors}
            readOnly={idLocked}
          />
          <TextField
            path={`${base}.maxDuration`}
            label="Time limit for the answer (seconds, optional)"
            type="number"
            inputMode="numeric"
            value={question.maxDuration}
            onChange={(maxDuration) => set({ maxDuration })}
            errors={errors}
          />
        </div>
        <label className="choice">
          <input type="checkbox" checked={question.required} onChange={(event) => set({ required: event.target.checked })} />
          An answer is required
        </label>
      </details>

      {media}
    </fieldset>
  );
}
