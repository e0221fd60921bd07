import type { TQuestion } from '../../../shared/schemas/scripts.js';
import type { TProbeLedger } from '../../../shared/schemas/probes.js';

/**
 * What the built-in prober is asked: the answer just given to `question`, in `language`, and
 * what was already asked on this question (so no probe repeats an earlier one or picks up the
 * same words twice).
 */
export interface ProbeRequest {
  answer: string;
  /** BCP 47 language of the interview (`en`, `nl`, `de`, `fr`, `es`; others speak English). */
  language: string;
  question: Pick<TQuestion, 'id' | 'text' | 'type' | 'followUp'>;
  /** Probes already asked on this question (0 for the first). */
  probesAsked: number;
  /** The AI's earlier turns on this question (the question and its probes), oldest first. */
  askedOnQuestion: string[];
  /** The words earlier probes on this question picked up. */
  pickedUpBefore: string[];
}

/** A probe to ask, with its ledger entry; `text` is one grammatical question in the interview's language. */
export interface ProbePlan {
  text: string;
  ledger: TProbeLedger;
}
