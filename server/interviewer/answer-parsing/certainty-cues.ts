/**
 * Words that make an answer tentative, per interview language: a participant who says them gave a
 * value but did not commit to it ("maybe a four", "probably the second one", "ik denk een vier").
 * Written naturally and compiled like the lexicons' phrases (`(a|b)` alternatives, trailing `?`
 * optional). Kept apart from `AnswerLexicon` because only the certainty reading uses them; a
 * language without an entry has no hedges, and its answers are unsure only by the other signals
 * (question mark, alternatives, self-correction, recogniser confidence).
 */
export const HEDGES: Record<string, readonly string[]> = {
  en: [
    'maybe',
    'perhaps',
    'probably',
    'possibly',
    'presumably',
    'likely',
    'i guess',
    'guess',
    'i suppose',
    'i think',
    'i believe',
    "(i'm|i am) not (really|quite|totally|entirely|too|so|that|100 %)? (sure|certain)",
    'not (sure|certain)',
    'kind of',
    'sort of',
    'kinda',
    'sorta',
    'roughly',
    'around',
    'approximately',
    'more or less',
    'ish',
    'or so',
    'something like',
    'somewhere around',
    "let's say",
    'let me think',
    'i reckon',
    'reckon',
    'might be',
    'could be',
    'if i (had|have) to (say|pick|choose|guess)',
    'hard to say',
    '(it)? depends',
    'depending',
    'i dunno',
    'dunno',
    "(i)? (don't|do not) know",
    'hmm',
    'um',
    'uh',
    'er',
    'erm',
  ],
  nl: [
    'misschien',
    'waarschijnlijk',
    'wellicht',
    'mogelijk',
    'denk ik',
    'ik denk',
    'geloof ik',
    'ik geloof',
    'vermoedelijk',
    'ongeveer',
    'zo ongeveer',
    'rond',
    'rondom',
    'zoiets',
    'of zo',
    'een beetje',
    'soort van',
    'zeg maar',
    'laten we zeggen',
    'ik weet (het)? niet (zo)? zeker',
    'niet zeker',
    'weet niet',
    'ik gok',
    'gok ik',
    'neig naar',
    'ik neig naar',
    '(het)? hangt (ervan|er van) af',
    'afhankelijk van',
    'zou kunnen',
    'kan zijn',
    'lijkt me',
    'hmm',
    'eh',
    'uh',
    'ehm',
  ],
  de: [
    'vielleicht',
    'wahrscheinlich',
    'wohl',
    'vermutlich',
    'möglicherweise',
    'eventuell',
    'ich glaube',
    'glaube ich',
    'glaub ich',
    'ich denke',
    'denke ich',
    'ich schätze',
    'schätze ich',
    'ungefähr',
    'etwa',
    'circa',
    'so um',
    'so etwa',
    'oder so',
    'sozusagen',
    'ich (sag|sage) mal',
    'sag ich mal',
    'sagen wir mal',
    'mehr oder weniger',
    'sagen wir',
    'nicht (ganz)? sicher',
    'weiß nicht',
    'keine ahnung',
    'irgendwie',
    'könnte sein',
    'kann sein',
    'kommt (drauf|darauf) an',
    'je nachdem',
    'tendiere zu',
    'ich tendiere',
    'hmm',
    'äh',
    'ähm',
    'öh',
  ],
  fr: [
    'peut-être',
    'peut etre',
    'probablement',
    'sans doute',
    'possiblement',
    'je pense',
    'je crois',
    'je suppose',
    'j imagine',
    'environ',
    'à peu près',
    'plus ou moins',
    'genre',
    'disons',
    'on va dire',
    'ou quelque chose',
    'quelque chose comme',
    'pas (trop|vraiment|tout à fait)? sûr',
    'sais pas',
    'je (ne)? sais pas',
    'ça doit être',
    'il me semble',
    '(ça)? dépend',
    'vers',
    'hmm',
    'euh',
    'bof',
  ],
  es: [
    'quizás',
    'quizá',
    'tal vez',
    'a lo mejor',
    'probablemente',
    'posiblemente',
    'seguramente',
    'creo',
    'supongo',
    'diría',
    'más o menos',
    'alrededor de',
    'aproximadamente',
    'unos',
    'digamos',
    'o algo así',
    'algo así como',
    'no (estoy)? (muy)? seguro',
    'no (estoy)? (muy)? segura',
    'no sé',
    'puede ser',
    'podría ser',
    'depende',
    'me parece',
    'hmm',
    'eh',
    'em',
    'pues',
  ],
};

/**
 * Per interview language, the other cues of the certainty reading (all written like `HEDGES`):
 * - `preference`: marks the value chosen among alternatives ("three or four, rather four"); not
 *   a hedge by itself ("plutôt en soirée" is a plain answer).
 * - `or`: joins alternatives ("three or four").
 * - `corrections`: besides the lexicon's correction phrases, what replaces a value said just
 *   before ("two no three", "la primera no la tercera").
 * - `noWords`: the answer "no"; negated ("I wouldn't say no") it is a softened yes.
 * - `partialYes` / `partialNo`: lukewarm answers to a yes/no question ("kind of", "bof"); "more or
 *   less" is neither (it says nothing about which).
 * - `middle`: the middle of a rating scale ("somewhere in the middle"), a value only on a scale
 *   with a whole midpoint, and never sure.
 */
export interface CertaintyCues {
  preference: readonly string[];
  or: readonly string[];
  corrections: readonly string[];
  noWords: readonly string[];
  /** The yes that contradicts a no ("non enfin si", "nein, doch"): a yes only after a correction. */
  contradictingYes?: readonly string[];
  partialYes: readonly string[];
  partialNo: readonly string[];
  middle: readonly string[];
}

export const CERTAINTY_CUES: Record<string, CertaintyCues> = {
  en: {
    preference: ['rather', 'more like', 'leaning (towards|toward)?', 'if anything', 'mostly', 'more'],
    or: ['or'],
    corrections: ['no', 'no no', 'nope', 'well'],
    noWords: ['no'],
    partialYes: ['kind of', 'sort of', 'kinda', 'sorta', 'somewhat', 'a bit', 'a little', 'in a way', 'partly', 'i guess'],
    partialNo: ['meh', 'not especially'],
    middle: ['middle', 'in between', 'halfway', 'average', 'neutral'],
  },
  nl: {
    preference: ['eerder', 'liever', 'vooral', 'meer'],
    or: ['of'],
    corrections: ['nee', 'toch', 'nou'],
    noWords: ['nee', 'neen'],
    partialYes: ['een beetje', 'soort van', 'enigszins', 'deels', 'best wel'],
    partialNo: ['mwah', 'mwa', 'mwoah', 'niet echt heel'],
    middle: ['midden', 'middenmoot', 'tussenin', 'gemiddeld', 'neutraal'],
  },
  de: {
    preference: ['eher', 'lieber', 'vor allem', 'mehr'],
    or: ['oder'],
    corrections: ['nein', 'also', 'na ja'],
    contradictingYes: ['doch'],
    noWords: ['nein', 'nee'],
    partialYes: ['irgendwie', 'ein bisschen', 'ein wenig', 'teilweise', 'einigermaßen', 'so halb'],
    partialNo: ['naja', 'na ja', 'joa', 'hm naja'],
    middle: ['mitte', 'mittelmaß', 'mittelmässig', 'mittelmäßig', 'dazwischen', 'durchschnitt', 'durchschnittlich', 'neutral'],
  },
  fr: {
    preference: ['plutôt', 'surtout', 'davantage'],
    or: ['ou'],
    corrections: ['non', 'enfin'],
    contradictingYes: ['si'],
    noWords: ['non'],
    partialYes: ['un peu', 'un petit peu', 'en quelque sorte', 'à peu près', 'moyennement', 'en partie'],
    partialNo: ['bof', 'mouais', 'pas trop'],
    middle: ['milieu', 'entre les deux', 'moyen', 'moyenne', 'neutre'],
  },
  es: {
    preference: ['más bien', 'mejor', 'sobre todo'],
    or: ['o', 'u'],
    corrections: ['no', 'bueno'],
    noWords: ['no'],
    partialYes: ['un poco', 'algo', 'en cierto modo', 'en parte', 'medio'],
    partialNo: ['psé', 'pse', 'bah'],
    middle: ['medio', 'en medio', 'intermedio', 'mitad', 'término medio', 'neutral', 'normal'],
  },
};

/**
 * Words a speech recogniser writes for a number said in a rating ("i'd give it a for"), per
 * language: read as the number only where nothing else in the answer is a rating.
 */
export const RATING_HOMOPHONES: Record<string, Record<string, string>> = {
  en: { for: 'four', fore: 'four', to: 'two', too: 'two', won: 'one', ate: 'eight', tree: 'three' },
};
