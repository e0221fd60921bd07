import type { z } from 'zod';
import type { FieldError } from '../../../../../shared/error-codes.js';
import { FOLLOW_UP_DEPTHS, type TFollowUpDepth } from '../../../../../shared/schemas/probes.js';
import {
  QUESTION_TYPES,
  type TQuestion,
  type TQuestionInput,
  type TScript,
  ZCreateScriptVersionInput,
  ZUpdateScriptInput,
} from '../../../../../shared/schemas/scripts.js';
import { fieldErrorsFromZod } from '../../../../../shared/validation-messages.js';

// The editor's form state and its conversion to the API's input. The form keeps what the inputs
// show (numbers as the typed text); `questionInputs` turns it into exactly what is sent, and the
// live check runs the API's own zod schemas over that, so the messages are the API's.

export type QuestionType = (typeof QUESTION_TYPES)[number];
export { FOLLOW_UP_DEPTHS, QUESTION_TYPES };

export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  open: 'Open answer',
  rating: 'Rating',
  multiple_choice: 'Multiple choice',
  yes_no: 'Yes or no',
};

export const DEPTH_LABELS: Record<TFollowUpDepth, string> = {
  low: 'Low: at most one, only when the answer leaves something open',
  medium: 'Medium: one follow-up',
  high: 'High: two follow-ups',
  deep: 'Deep: three follow-ups',
};

export interface QuestionDraft {
  /** Stable for React and focus while the question moves or its id is edited. */
  key: string;
  id: string;
  text: string;
  type: QuestionType;
  required: boolean;
  /** Seconds, as typed; empty is no limit. */
  maxDuration: string;
  /** Kept while the type is changed back and forth; sent for multiple_choice only. */
  options: string[];
  /** Sent for rating only. */
  scale: { min: string; max: string; minLabel: string; maxLabel: string };
  followUp: {
    enabled: boolean;
    /** Whether `enabled` is sent: given in the script, or set here. */
    enabledSet: boolean;
    depth: TFollowUpDepth | '';
    prompt: string;
    maxFollowUps: string;
  };
}

export interface ScriptDraft {
  name: string;
  description: string;
  systemPrompt: string;
  questions: QuestionDraft[];
  /** Script-wide settings the editor changes; the others (voice, turn-taking) are left as they are. */
  settings: { maxFollowUps: string; language: string };
}

let keys = 0;
export function newKey(): string {
  keys += 1;
  return `k${keys}`;
}

export function questionDraftOf(question: TQuestion): QuestionDraft {
  return {
    key: newKey(),
    id: question.id,
    text: question.text,
    type: question.type,
    required: question.required,
    maxDuration: question.maxDuration === undefined ? '' : String(question.maxDuration),
    options: question.options ? [...question.options] : ['', ''],
    scale: {
      min: String(question.scale?.min ?? 1),
      max: String(question.scale?.max ?? 5),
      minLabel: question.scale?.minLabel ?? '',
      maxLabel: question.scale?.maxLabel ?? '',
    },
    followUp: {
      enabled: question.followUp?.enabled !== false,
      enabledSet: question.followUp?.enabled !== undefined,
      depth: question.followUp?.depth ?? '',
      prompt: question.followUp?.prompt ?? '',
      maxFollowUps: question.followUp?.maxFollowUps === undefined ? '' : String(question.followUp.maxFollowUps),
    },
  };
}

export function scriptDraftOf(script: Pick<TScript, 'name' | 'description' | 'systemPrompt' | 'questions' | 'settings'>): ScriptDraft {
  return {
    name: script.name,
    description: script.description ?? '',
    systemPrompt: script.systemPrompt,
    questions: [...script.questions].sort((a, b) => a.order - b.order).map(questionDraftOf),
    settings: {
      maxFollowUps: script.settings.maxFollowUps === undefined ? '' : String(script.settings.maxFollowUps),
      language: script.settings.language ?? '',
    },
  };
}

/**
 * Whether the question's "Ask follow-up questions" box is ticked: what the interview will do, not
 * what the form happened to start with. Where the script leaves `followUp.enabled` out, the API
 * (followUpLimitOf in server/domains/sessions/interview-flow.ts) allows follow-ups on an open
 * question, and on a rating, yes/no or multiple-choice question only when it has a depth or its
 * own maximum: a structured question whose box showed ticked by default, with a "What to probe
 * for" written under it, was never followed up. Ticking the box writes `enabled` explicitly.
 */
export function followUpsOn(question: QuestionDraft): boolean {
  const { enabled, enabledSet, depth, maxFollowUps } = question.followUp;
  if (enabledSet) return enabled;
  return question.type === 'open' || depth !== '' || maxFollowUps.trim() !== '';
}

/** A fresh question with an id no other question has (`q1`, `q2`, …). */
export function newQuestion(existing: readonly { id: string }[], type: QuestionType = 'open'): QuestionDraft {
  const taken = new Set(existing.map((question) => question.id));
  let n = existing.length + 1;
  while (taken.has(`q${n}`)) n += 1;
  return questionDraftOf({ id: `q${n}`, text: '', type, required: true, order: 0 });
}

/** Typed text → number; empty is absent (the API then says "is required" where it must be given). */
function numberOf(text: string): number | undefined {
  return text.trim() === '' ? undefined : Number(text);
}

/** The question as the API takes it; order is the position in the list (the API numbers them in array order). */
export function questionInputOf(draft: QuestionDraft): TQuestionInput {
  const input: Record<string, unknown> = { id: draft.id, text: draft.text, type: draft.type, required: draft.required };
  const followUp: Record<string, unknown> = {};
  if (draft.followUp.enabledSet) followUp.enabled = draft.followUp.enabled;
  if (draft.followUp.depth) followUp.depth = draft.followUp.depth;
  if (draft.followUp.prompt.trim()) followUp.prompt = draft.followUp.prompt;
  const maxFollowUps = numberOf(draft.followUp.maxFollowUps);
  if (maxFollowUps !== undefined) followUp.maxFollowUps = maxFollowUps;
  if (Object.keys(followUp).length > 0) input.followUp = followUp;
  const maxDuration = numberOf(draft.maxDuration);
  if (maxDuration !== undefined) input.maxDuration = maxDuration;
  if (draft.type === 'multiple_choice') input.options = draft.options;
  if (draft.type === 'rating') {
    const scale: Record<string, unknown> = { min: numberOf(draft.scale.min), max: numberOf(draft.scale.max) };
    if (draft.scale.minLabel.trim()) scale.minLabel = draft.scale.minLabel;
    if (draft.scale.maxLabel.trim()) scale.maxLabel = draft.scale.maxLabel;
    input.scale = scale;
  }
  return input as TQuestionInput;
}

export function questionInputsOf(draft: ScriptDraft): TQuestionInput[] {
  return draft.questions.map(questionInputOf);
}

export interface SettingsValues {
  maxFollowUps?: number | undefined;
  language?: string | undefined;
}

export function settingsValuesOf(draft: ScriptDraft): SettingsValues {
  return { maxFollowUps: numberOf(draft.settings.maxFollowUps), language: draft.settings.language || undefined };
}

/** The settings merge patch from the saved values to the form's: changed keys only, `null` removes one. */
export function settingsPatchOf(saved: SettingsValues, next: SettingsValues): Record<string, unknown> | undefined {
  const patch: Record<string, unknown> = {};
  for (const key of ['maxFollowUps', 'language'] as const) {
    if (saved[key] !== next[key]) patch[key] = next[key] ?? null;
  }
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** What the editor would send for the whole content (every field, changed or not): the live check's input. */
export function fullUpdateInput(scriptId: string, draft: ScriptDraft): z.input<typeof ZUpdateScriptInput> {
  const settings = settingsValuesOf(draft);
  return {
    scriptId,
    name: draft.name,
    description: draft.description.trim() ? draft.description : null,
    systemPrompt: draft.systemPrompt,
    questions: questionInputsOf(draft),
    settings: { maxFollowUps: settings.maxFollowUps ?? null, language: settings.language ?? null },
  };
}

/**
 * The live check: the API's own schemas (ZUpdateScriptInput for the content, and
 * ZCreateScriptVersionInput for the note of a new version) over what would be sent, as the API's
 * field list (`questions[1].text`: `must not be empty`).
 */
export function checkDraft(scriptId: string, draft: ScriptDraft, changelog?: string): FieldError[] {
  const input = fullUpdateInput(scriptId, draft);
  const fields: FieldError[] = [];
  const content = ZUpdateScriptInput.safeParse(input);
  if (!content.success) fields.push(...fieldErrorsFromZod(content.error, input).fields);
  if (changelog !== undefined) {
    const versionInput = { scriptId, changelog };
    const version = ZCreateScriptVersionInput.safeParse(versionInput);
    if (!version.success) fields.push(...fieldErrorsFromZod(version.error, versionInput).fields);
  }
  return fields;
}

/** Field errors by path; a path may carry several messages. */
export type FieldMessages = Map<string, string[]>;

export function byPath(fields: readonly FieldError[]): FieldMessages {
  const map: FieldMessages = new Map();
  for (const field of fields) map.set(field.path, [...(map.get(field.path) ?? []), field.message]);
  return map;
}

/** The element id of a field's input, from its API path (`questions[1].text` → `field-questions-1-text`). */
export function fieldId(path: string): string {
  return `field-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '')}`;
}

/** The id of the text that says what is wrong with a field (for aria-describedby). */
export function errorId(path: string): string {
  return `${fieldId(path)}-error`;
}

/** Whether two drafts would send the same content (the question keys aside). */
export function sameContent(a: ScriptDraft, b: ScriptDraft): boolean {
  return (
    a.systemPrompt === b.systemPrompt &&
    JSON.stringify(questionInputsOf(a)) === JSON.stringify(questionInputsOf(b)) &&
    settingsPatchOf(settingsValuesOf(a), settingsValuesOf(b)) === undefined
  );
}

export function sameDetails(a: ScriptDraft, b: ScriptDraft): boolean {
  return a.name === b.name && (a.description.trim() || null) === (b.description.trim() || null);
}

/** Moves the item at `from` to `to` (both positions in the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(next.length, to)), 0, item!);
  return next;
}

/** Words for the parts of a path, as the editor labels its fields. */
const PART_NAMES: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  systemPrompt: 'System prompt',
  settings: 'Interview settings',
  language: 'language',
  maxFollowUps: 'most follow-ups',
  changelog: 'Note for the new draft',
  questions: 'Questions',
  text: 'text',
  type: 'answer type',
  options: 'options',
  scale: 'rating scale',
  min: 'lowest rating',
  max: 'highest rating',
  minLabel: 'label of the lowest',
  maxLabel: 'label of the highest',
  followUp: 'follow-up',
  depth: 'depth',
  prompt: 'what to probe for',
  id: 'question ID',
  maxDuration: 'time limit',
};

/**
 * Where a problem is, in the editor's own words and counted from 1:
 * `questions[2].options[0]` → "Question 3, option 1"; `settings.language` → "Interview settings, language".
 */
export function placeOf(path: string): string {
  const parts: string[] = [];
  for (const match of path.matchAll(/([A-Za-z]+)(?:\[(\d+)\])?/g)) {
    const [, key, index] = match;
    if (key === 'questions' && index !== undefined) parts.push(`Question ${Number(index) + 1}`);
    else if (key === 'options' && index !== undefined) parts.push(`option ${Number(index) + 1}`);
    else parts.push(PART_NAMES[key!] ?? key!);
  }
  const [first = path, ...rest] = parts;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(', ');
}

/** A problem in the list's words: zod's "at least 1 characters" is an empty field to a researcher. */
export function problemWords(message: string): string {
  return /^must be at least 1 characters?$/.test(message) ? 'must not be empty' : message;
}

/**
 * Whether a problem at `path` is for a field the researcher has touched: its own input, or one
 * inside it (a question's options are touched through each option's box). Ids are `fieldId`s.
 */
export function isTouched(path: string, touched: ReadonlySet<string>): boolean {
  const id = fieldId(path);
  for (const other of touched) if (other === id || other.startsWith(`${id}-`)) return true;
  return false;
}
