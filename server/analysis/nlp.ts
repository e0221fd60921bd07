import winkNLP, { type ItemSentence, type ItemToken, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/** One token as the analysis reads it (from wink-nlp's English model). */
export interface Token {
  /** As written. */
  value: string;
  /** Lower case, contractions expanded (`ca n't` → `can not`, `'d` → `would`). */
  normal: string;
  /** Lower case ("emails" → "email", "went" → "go"). */
  lemma: string;
  /** Universal POS tag (NOUN, VERB, ADJ, …). */
  pos: string;
  /** `word`, `number`, `punctuation`, `emoji`, … */
  type: string;
  /** Inside the scope of a negation ("not", "never", "no" …), as the model marks it. */
  negated: boolean;
  /** Whitespace before the token in the original text. */
  precedingSpaces: string;
}

export interface Sentence {
  text: string;
  tokens: Token[];
}

let instance: WinkMethods | undefined;

/** The English pipeline, loaded once per process (about 0.3 s) on first use. */
function nlp(): WinkMethods {
  instance ??= winkNLP(model);
  return instance;
}

/** Sentences and their tokens, in order. */
export function readSentences(text: string): Sentence[] {
  const { its } = nlp();
  const doc = nlp().readDoc(text);
  const sentences: Sentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens: Token[] = [];
    sentence.tokens().each((token: ItemToken) => {
      tokens.push({
        value: token.out(its.value),
        normal: token.out(its.normal),
        // wink-nlp's declarations type `its.lemma` as needing model add-ons; the English model has them.
        lemma: token.out(its.lemma as unknown as typeof its.value).toLowerCase(),
        pos: token.out(its.pos),
        type: token.out(its.type),
        negated: token.out(its.negationFlag) as unknown as boolean,
        precedingSpaces: token.out(its.precedingSpaces),
      });
    });
    sentences.push({ text: sentence.out(), tokens });
  });
  return sentences;
}
