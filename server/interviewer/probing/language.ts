import type { TProbeReason } from '../../../shared/schemas/probes.js';
import type { WordToken } from './words.js';

/** What an answer can say that deserves a question of its own. */
export type AnchorReason = Exclude<TProbeReason, 'vague' | 'script_prompt'>;

/** Order in which reasons win a tie inside one clause: a difficulty before what was done about it, before the rest. */
export const ANCHOR_REASONS: readonly AnchorReason[] = ['problem', 'workaround', 'event', 'feeling', 'comparison', 'number'];

/**
 * A word or phrase that signals a reason (pattern syntax in words.ts `compileCue`). `weight` 2
 * (the default) makes a clause worth a probe on its own; 1 only counts beside another cue.
 * `question`, when set, is asked instead of the reason's own questions, because the cue says
 * more precisely what happened ("gave up" → "What made you stop?"); `personal` questions are
 * asked only when the participant spoke of themselves.
 */
export interface ProbeCue {
  pattern: string;
  reason: AnchorReason;
  weight?: number;
  question?: string;
  personal?: boolean;
}

/**
 * Everything the prober knows of one language; the code that uses it knows none. One file per
 * language (en.ts, nl.ts, de.ts, fr.ts, es.ts), in the register of that language's catalogue.
 */
export interface ProbeLanguage {
  code: 'en' | 'nl' | 'de' | 'fr' | 'es';
  /** French clitics ("j'ai", "m'a") are tokens of their own. */
  splitElision: boolean;
  cues: ProbeCue[];
  /** Words that open a new clause inside a sentence: "but", "because", "so". */
  clauseOpeners: string[];
  /** "and": a new clause only when what follows starts with a subject, else it continues the one before. */
  coordinators: string[];
  /** Pronouns, articles and possessives: a clause starting with one has its subject and can be reported. */
  subjectStarters: string[];
  /** Whether a clause that starts with its verb has its subject in it (Spanish drops "yo": "Apunto todo…" is a whole clause). */
  startsWithVerb?(words: readonly WordToken[]): boolean;
  /** Words that start a clause with a finite verb after a fronted word (V2: "dann bel ich"), so it can be reported too. */
  frontedAdverbs?: string[];
  /** Fillers and discourse words trimmed from the edges of a quoted span ("um", "well", "honestly"). */
  edgeFillers: string[];
  /** Spelled-out numbers. */
  numberWords: ReadonlySet<string>;
  /** A question asking for an amount ("how many", "hoeveel"): its answer's figure is worth a probe. */
  quantityQuestions: string[];
  /** Answers that close the topic ("nothing else", "that covers it"): no probe, not even a vague one. */
  finished: string[];
  /** Script prompts that take a difficulty for granted ("hardest part", "what went wrong"). */
  presupposesDifficulty: string[];
  /** Words of the participant speaking of themselves ("I", "my", "we"): personal questions fit. */
  firstPerson: ReadonlySet<string>;
  /**
   * The clause in the second person ("I gave up" → "you gave up"): one replacement per word
   * (undefined keeps it), or null when a first-person form is met this layer cannot shift, so
   * the words are quoted as said instead.
   */
  shift(words: readonly WordToken[]): (string | undefined)[] | null;
  /** Whether the first word of a span is written lowercase inside a sentence (German keeps its nouns). */
  lowercaseFirst(word: WordToken): boolean;
  /** "You said you gave up after two tries." */
  reported(clause: string): string;
  /** "You mentioned “pretty betrayed”." */
  quoted(span: string): string;
  /** Open questions per reason, tried in order until one was not asked yet. */
  questions: Record<AnchorReason, string[]>;
  /** Questions asked instead when the words are about someone or something else ("She prints them out"), where "you" would not fit. */
  thirdPartyQuestions: Partial<Record<AnchorReason, string[]>>;
}
