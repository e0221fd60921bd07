import { compilePhrase, normalizeWord, type ApostropheMode, type PhrasePattern } from './text.js';

/**
 * Everything the answer parsers know about one language, as data. Words may be written
 * naturally ("don't"); they are normalised like participant text. Multi-word entries are
 * phrases (see `compilePhrase`: `(a|b)` alternatives, trailing `?` optional). Adding a language
 * means adding one of these, not touching the parsers.
 */
export interface AnswerLexicon {
  /** `drop` joins "don't" to "dont" (English speech-to-text writes both); `split` makes "j'ai" two words. */
  apostrophes: ApostropheMode;
  numbers: {
    /** Single-word cardinals: "zero".."nineteen" in English. */
    units: Record<string, number>;
    /** Tens that combine with a following unit ("twenty three", "twenty-three"). */
    tens: Record<string, number>;
    /** Multiplies the preceding cardinal, or 1 ("a hundred"). */
    hundred: readonly string[];
    /** Words placing a number on a fraction ("three and a half", "eight point five"). */
    fractionPhrases: readonly string[];
    /** Cardinals that are also pronouns ("the new one", "no one"). */
    pronounNumbers: readonly string[];
    /** Words before a pronoun number that make it a pronoun ("this one", "no one"). */
    pronounDeterminers: readonly string[];
    ordinals: Record<string, number>;
    /** Ordinal-like words meaning the last option. */
    lastWords: readonly string[];
    /** Counting adverbs ("once", "twice"): counts, never ratings. */
    counts: Record<string, number>;
  };
  /** Articles that may stand before a rating, with an adjective between ("a 4", "a solid 4"). */
  articles: readonly string[];
  /** Joins a rating to its scale maximum ("4 out of 5"); `/` is understood in every language. */
  outOf: readonly string[];
  /** Like `outOf`, but only right after a number: "4 of 5" (not "a team of 5"). */
  outOfAfterNumber: readonly string[];
  /** Words that may follow a rating ("5 stars"). */
  ratingUnits: readonly string[];
  /** Percent words; a rating unit only on a 0–100 scale. */
  percentWords: readonly string[];
  /**
   * Bounds around a number. A rating next to one is not a value ("at least a 4"); in a
   * multiple-choice option or answer it makes an interval ("under 18", "45 or older").
   */
  bounds: {
    /** Before the number, excluding it: "more than 5", "older than 45", "over 5". */
    above: readonly string[];
    /** Before the number, excluding it: "under 18", "less than 3". */
    below: readonly string[];
    /** Before the number, including it: "at least 4". */
    atLeast: readonly string[];
    /** Before the number, including it: "at most 2", "up to 3". */
    atMost: readonly string[];
    /** After the number, including it: "45 or older", "5 or more", "18+". */
    orMore: readonly string[];
    /** After the number, including it: "2 or less", "17 or younger". */
    orLess: readonly string[];
  };
  /** Joins the two ends of a range ("3 to 5", "3-5"). */
  rangeJoiners: readonly string[];
  /** Opens a range closed by `rangeAnd` ("between 25 and 34"). */
  rangeOpeners: readonly string[];
  rangeAnd: readonly string[];
  /** Phrases after which the participant replaces what they said before ("no actually, a 4"). */
  correctionPhrases: readonly string[];
  /** Words that negate what follows ("not", "never", "don't"). */
  negators: readonly string[];
  /** Words a negation reaches across ("not even a 3", "wouldn't give it a 10"). */
  negationTransparent: readonly string[];
  /** Phrases that set an option aside like a negation does ("anything but phone", "I hate calls"). */
  exclusions: readonly string[];
  /** Grammatical words: articles, pronouns, prepositions, conjunctions, auxiliaries. */
  stopwords: readonly string[];
  /** Discourse words, hedges, intensifiers, rating verbs: neither a noun a number could count nor a label. */
  discourseWords: readonly string[];
  /** Words that make a multiple-choice number explicit ("option 2", "number three"). */
  referenceWords: readonly string[];
  /** Nouns after an ordinal that make it an option reference ("the second one"). */
  ordinalNouns: readonly string[];
  /**
   * Words that reverse or bound meaning. A partial match that leaves one of these out of an option
   * ("once a month" against "Less than once a month") means something else, so it does not count.
   */
  meaningShifters: readonly string[];
  /** Intensifiers: a label that differs only by one of these is a different label ("easy" ≠ "very easy"). */
  intensifiers: readonly string[];
  /** Words that weaken what follows: "pretty poor" is short of the label "Poor". */
  downtoners: readonly string[];
  polarity: {
    yes: readonly string[];
    no: readonly string[];
    unsure: readonly string[];
    /** Answer particles that count only when no noun follows ("no, it crashed" vs "no problems"). */
    noParticles: readonly string[];
    /** What may follow a particle for it to still be an answer particle. */
    particleFollowers: readonly string[];
    /** Negators that are an answer on their own at the end of a clause ("probably not"). */
    clauseFinalNegators: readonly string[];
    /** Short clausal answers ("I do", "it was") that count only when nothing but a tail follows. */
    shortYes: readonly string[];
    /** Short negative clausal answers ("I haven't", "it wasn't") that count only when nothing but a tail follows. */
    shortNo: readonly string[];
    /** Negative clauses that answer whatever follows them ("I haven't used it yet"). */
    clauseNo: readonly string[];
    /** Words that may follow a short clausal answer ("I did, a couple of times", "I have actually"). */
    answerTail: readonly string[];
  };
  open: {
    /** Sounds and phrases that carry nothing ("um", "you know", "to be honest"). */
    fillers: readonly string[];
    /** Phrases that answer without saying anything ("I don't know", "nothing really", "same as before"). */
    nonCommittal: readonly string[];
    /** Bare verdicts ("good", "fine", "love"): non-committal when nothing specific comes with them. */
    verdicts: readonly string[];
    /** Words that name nothing specific ("app", "product", "everything"). */
    generic: readonly string[];
  };
  /** Reduces inflections so "reporting", "reports" and "report" compare equal. */
  stem(word: string): string;
}

type PhraseList = readonly PhrasePattern[];

/** A lexicon prepared for lookups: sets of normalised words and compiled phrases. */
export interface CompiledLexicon {
  source: AnswerLexicon;
  /** False for the language-neutral lexicon: without function words, context rules cannot apply. */
  knowsWords: boolean;
  units: Map<string, number>;
  tens: Map<string, number>;
  hundred: Set<string>;
  fractionPhrases: PhraseList;
  pronounNumbers: Set<string>;
  pronounDeterminers: Set<string>;
  ordinals: Map<string, number>;
  lastWords: Set<string>;
  counts: Map<string, number>;
  articles: Set<string>;
  outOf: PhraseList;
  outOfAfterNumber: PhraseList;
  ratingUnits: Set<string>;
  percentWords: PhraseList;
  bounds: Record<keyof AnswerLexicon['bounds'], PhraseList>;
  rangeJoiners: PhraseList;
  rangeOpeners: Set<string>;
  rangeAnd: Set<string>;
  correctionPhrases: PhraseList;
  negators: Set<string>;
  negationTransparent: Set<string>;
  exclusions: PhraseList;
  stopwords: Set<string>;
  functionWords: Set<string>;
  referenceWords: Set<string>;
  ordinalNouns: Set<string>;
  meaningShifters: Set<string>;
  intensifiers: Set<string>;
  downtoners: PhraseList;
  yes: PhraseList;
  no: PhraseList;
  unsure: PhraseList;
  noParticles: Set<string>;
  particleFollowers: Set<string>;
  clauseFinalNegators: Set<string>;
  shortYes: PhraseList;
  shortNo: PhraseList;
  clauseNo: PhraseList;
  answerTail: Set<string>;
  fillers: PhraseList;
  nonCommittal: PhraseList;
  verdicts: Set<string>;
  generic: Set<string>;
  stem(word: string): string;
}

export function compileLexicon(lexicon: AnswerLexicon): CompiledLexicon {
  const mode = lexicon.apostrophes;
  const words = (list: readonly string[]) => new Set(list.flatMap((word) => normalizeWord(word, mode)));
  const map = (record: Record<string, number>) =>
    new Map(Object.entries(record).flatMap(([word, value]) => normalizeWord(word, mode).map((normal) => [normal, value] as const)));
  const phrases = (list: readonly string[]) => list.map((phrase) => compilePhrase(phrase, mode));
  const stopwords = words(lexicon.stopwords);
  return {
    source: lexicon,
    knowsWords: stopwords.size > 0,
    units: map(lexicon.numbers.units),
    tens: map(lexicon.numbers.tens),
    hundred: words(lexicon.numbers.hundred),
    fractionPhrases: phrases(lexicon.numbers.fractionPhrases),
    pronounNumbers: words(lexicon.numbers.pronounNumbers),
    pronounDeterminers: words(lexicon.numbers.pronounDeterminers),
    ordinals: map(lexicon.numbers.ordinals),
    lastWords: words(lexicon.numbers.lastWords),
    counts: map(lexicon.numbers.counts),
    articles: words(lexicon.articles),
    outOf: phrases(lexicon.outOf),
    outOfAfterNumber: phrases(lexicon.outOfAfterNumber),
    ratingUnits: words(lexicon.ratingUnits),
    percentWords: phrases(lexicon.percentWords),
    bounds: {
      above: phrases(lexicon.bounds.above),
      below: phrases(lexicon.bounds.below),
      atLeast: phrases(lexicon.bounds.atLeast),
      atMost: phrases(lexicon.bounds.atMost),
      orMore: phrases(lexicon.bounds.orMore),
      orLess: phrases(lexicon.bounds.orLess),
    },
    rangeJoiners: phrases(lexicon.rangeJoiners),
    rangeOpeners: words(lexicon.rangeOpeners),
    rangeAnd: words(lexicon.rangeAnd),
    correctionPhrases: phrases(lexicon.correctionPhrases),
    negators: words(lexicon.negators),
    negationTransparent: words(lexicon.negationTransparent),
    exclusions: phrases(lexicon.exclusions),
    stopwords,
    functionWords: new Set([...stopwords, ...words(lexicon.discourseWords)]),
    referenceWords: words(lexicon.referenceWords),
    ordinalNouns: words(lexicon.ordinalNouns),
    meaningShifters: words(lexicon.meaningShifters),
    intensifiers: words(lexicon.intensifiers),
    downtoners: phrases(lexicon.downtoners),
    yes: phrases(lexicon.polarity.yes),
    no: phrases(lexicon.polarity.no),
    unsure: phrases(lexicon.polarity.unsure),
    noParticles: words(lexicon.polarity.noParticles),
    particleFollowers: words(lexicon.polarity.particleFollowers),
    clauseFinalNegators: words(lexicon.polarity.clauseFinalNegators),
    shortYes: phrases(lexicon.polarity.shortYes),
    shortNo: phrases(lexicon.polarity.shortNo),
    clauseNo: phrases(lexicon.polarity.clauseNo),
    answerTail: words(lexicon.polarity.answerTail),
    fillers: phrases(lexicon.open.fillers),
    nonCommittal: phrases(lexicon.open.nonCommittal),
    verdicts: words(lexicon.open.verdicts),
    generic: words(lexicon.open.generic),
    stem: lexicon.stem,
  };
}

/**
 * For a language without a lexicon: digits, `4/5`, option text and option numbers still work;
 * nothing that needs words does, so such answers come back null rather than guessed.
 */
export const NEUTRAL_LEXICON: AnswerLexicon = {
  apostrophes: 'split',
  numbers: {
    units: {},
    tens: {},
    hundred: [],
    fractionPhrases: [],
    pronounNumbers: [],
    pronounDeterminers: [],
    ordinals: {},
    lastWords: [],
    counts: {},
  },
  articles: [],
  outOf: [],
  outOfAfterNumber: [],
  ratingUnits: [],
  percentWords: ['%'],
  bounds: { above: [], below: [], atLeast: [], atMost: [], orMore: ['+'], orLess: [] },
  rangeJoiners: ['-'],
  rangeOpeners: [],
  rangeAnd: [],
  correctionPhrases: [],
  negators: [],
  negationTransparent: [],
  exclusions: [],
  stopwords: [],
  discourseWords: [],
  referenceWords: [],
  ordinalNouns: [],
  meaningShifters: [],
  intensifiers: [],
  downtoners: [],
  polarity: {
    yes: [],
    no: [],
    unsure: [],
    noParticles: [],
    particleFollowers: [],
    clauseFinalNegators: [],
    shortYes: [],
    shortNo: [],
    clauseNo: [],
    answerTail: [],
  },
  open: { fillers: [], nonCommittal: [], verdicts: [], generic: [] },
  stem: (word) => word,
};
