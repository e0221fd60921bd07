import type { TQuestion, TScriptSettings } from '../../../../../shared/schemas/scripts.js';

// "What changed" between two versions of a script, worked out in the browser from the two
// versions' content: questions are matched by id, so an edited question is "changed", not
// "removed and added". Pure, so it is unit-tested (tests/dashboard/script-diff.test.ts).

export interface VersionContent {
  version: number;
  systemPrompt: string;
  questions: readonly TQuestion[];
  settings: TScriptSettings;
}

export interface FieldChange {
  /** The question's field, dotted below it: `text`, `options`, `scale.max`, `followUp.depth`. */
  field: string;
  from: unknown;
  to: unknown;
}

export type QuestionChange =
  | { kind: 'added'; id: string; text: string; position: number }
  | { kind: 'removed'; id: string; text: string; position: number }
  | { kind: 'moved'; id: string; text: string; from: number; to: number }
  | { kind: 'changed'; id: string; text: string; position: number; fields: FieldChange[] };

export interface ScriptDiff {
  from: number;
  to: number;
  systemPrompt: { from: string; to: string } | null;
  settings: FieldChange[];
  questions: QuestionChange[];
}

const QUESTION_FIELDS = ['text', 'type', 'required', 'maxDuration', 'options', 'scale', 'followUp'] as const;

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Object fields compared key by key (scale, followUp, settings), so the change names the key. */
function objectChanges(prefix: string, a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): FieldChange[] {
  const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort();
  return keys.filter((key) => !same(a?.[key], b?.[key])).map((key) => ({ field: prefix ? `${prefix}.${key}` : key, from: a?.[key], to: b?.[key] }));
}

function questionChanges(a: TQuestion, b: TQuestion): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of QUESTION_FIELDS) {
    if (same(a[field], b[field])) continue;
    if (field === 'scale' || field === 'followUp') {
      changes.push(...objectChanges(field, a[field] as Record<string, unknown> | undefined, b[field] as Record<string, unknown> | undefined));
    } else {
      changes.push({ field, from: a[field], to: b[field] });
    }
  }
  return changes;
}

/** The longest run of ids that keep their relative order in both lists: the questions not moved. */
function keptInOrder(a: readonly string[], b: readonly string[]): Set<string> {
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const kept = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      kept.add(a[i]!);
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i++;
    else j++;
  }
  return kept;
}

function ordered(questions: readonly TQuestion[]): TQuestion[] {
  return [...questions].sort((a, b) => a.order - b.order);
}

/**
 * The changes from `a` to `b`. A question is "moved" when its place among the questions both
 * versions share changed (adding one in front moves nothing); a moved question whose content also
 * changed is listed both ways. Positions are 1-based, as the editor numbers questions.
 */
export function diffScripts(a: VersionContent, b: VersionContent): ScriptDiff {
  const before = ordered(a.questions);
  const after = ordered(b.questions);
  const beforeById = new Map(before.map((question, index) => [question.id, { question, position: index + 1 }]));
  const afterById = new Map(after.map((question, index) => [question.id, { question, position: index + 1 }]));
  const shared = (list: TQuestion[], other: Map<string, unknown>) => list.filter((question) => other.has(question.id)).map((question) => question.id);
  const kept = keptInOrder(shared(before, afterById), shared(after, beforeById));

  const changes: QuestionChange[] = [];
  for (const [index, question] of after.entries()) {
    const old = beforeById.get(question.id);
    if (!old) {
      changes.push({ kind: 'added', id: question.id, text: question.text, position: index + 1 });
      continue;
    }
    if (!kept.has(question.id)) changes.push({ kind: 'moved', id: question.id, text: question.text, from: old.position, to: index + 1 });
    const fields = questionChanges(old.question, question);
    if (fields.length > 0) changes.push({ kind: 'changed', id: question.id, text: question.text, position: index + 1, fields });
  }
  for (const [index, question] of before.entries()) {
    if (!afterById.has(question.id)) changes.push({ kind: 'removed', id: question.id, text: question.text, position: index + 1 });
  }

  return {
    from: a.version,
    to: b.version,
    systemPrompt: a.systemPrompt === b.systemPrompt ? null : { from: a.systemPrompt, to: b.systemPrompt },
    settings: objectChanges('', a.settings as Record<string, unknown>, b.settings as Record<string, unknown>),
    questions: changes,
  };
}

export function isEmptyDiff(diff: ScriptDiff): boolean {
  return diff.systemPrompt === null && diff.settings.length === 0 && diff.questions.length === 0;
}

const FIELD_NAMES: Record<string, string> = {
  text: 'text',
  type: 'type',
  required: 'required',
  maxDuration: 'time limit (seconds)',
  options: 'options',
  'scale.min': 'scale minimum',
  'scale.max': 'scale maximum',
  'scale.minLabel': 'label of the lowest rating',
  'scale.maxLabel': 'label of the highest rating',
  'followUp.enabled': 'follow-ups on',
  'followUp.depth': 'follow-up depth',
  'followUp.prompt': 'follow-up prompt',
  'followUp.maxFollowUps': 'most follow-ups',
  maxFollowUps: 'most follow-ups per question',
  language: 'language',
  voice: 'voice',
  turnTaking: 'turn-taking',
};

/** A value as a sentence shows it: text in quotes, lists joined, absent as "not set". */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return 'not set';
  if (typeof value === 'string') return `“${value.length > 120 ? `${value.slice(0, 117)}…` : value}”`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value)) return value.map(describeValue).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function describeField(change: FieldChange): string {
  return `${FIELD_NAMES[change.field] ?? change.field} from ${describeValue(change.from)} to ${describeValue(change.to)}`;
}

/** The diff in sentences, one per change, in the order the editor shows questions. */
export function describeDiff(diff: ScriptDiff): string[] {
  const lines: string[] = [];
  if (diff.systemPrompt) lines.push('The system prompt changed.');
  for (const change of diff.settings) lines.push(`Setting ${describeField(change)}.`);
  for (const change of diff.questions) {
    const name = `“${change.text}” (${change.id})`;
    if (change.kind === 'added') lines.push(`Question ${name} added at position ${change.position}.`);
    else if (change.kind === 'removed') lines.push(`Question ${name} removed (it was at position ${change.position}).`);
    else if (change.kind === 'moved') lines.push(`Question ${name} moved from position ${change.from} to ${change.to}.`);
    else lines.push(`Question ${name} changed: ${change.fields.map(describeField).join('; ')}.`);
  }
  return lines;
}
