import type { AnswerLexicon } from './lexicon.js';

/*
 * German. The text normaliser folds diacritics ("fünf" → "funf", "wäre" → "ware") but keeps "ß";
 * words here are written naturally and normalised like participant text. Typists without a
 * German keyboard write "fuenf", "waere", "weiss": `withTranscriptions` adds those spellings to
 * every list. German compounds its numbers ("einundzwanzig", "dreieinhalb") into one word, so
 * they are listed whole as units rather than read from parts.
 */

const UNITS: Record<string, number> = {
  null: 0, eins: 1, zwei: 2, zwo: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10,
  elf: 11, zwölf: 12, dreizehn: 13, vierzehn: 14, fünfzehn: 15, sechzehn: 16, siebzehn: 17, achtzehn: 18, neunzehn: 19,
};
const TENS: Record<string, number> = {
  zwanzig: 20, dreißig: 30, vierzig: 40, fünfzig: 50, sechzig: 60, siebzig: 70, achtzig: 80, neunzig: 90,
};
/** Unit forms inside a compound: "ein-und-zwanzig", "ein-hundert", "ein-einhalb". */
const COMPOUND_UNITS: Record<string, number> = {
  ein: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9,
};

/** "einundzwanzig".."neunundneunzig", "einhundert".."neunhundert", "eineinhalb".."neunzehneinhalb". */
function compoundNumbers(): Record<string, number> {
  const numbers: Record<string, number> = { einhundert: 100, hundertprozent: 100, anderthalb: 1.5, eineinhalb: 1.5 };
  for (const [unit, unitValue] of Object.entries(COMPOUND_UNITS)) {
    for (const [ten, tenValue] of Object.entries(TENS)) numbers[`${unit}und${ten}`] = tenValue + unitValue;
    if (unitValue > 1) numbers[`${unit}hundert`] = unitValue * 100;
  }
  for (const [word, value] of Object.entries(UNITS)) {
    if (value >= 2) numbers[`${word}einhalb`] = value + 0.5;
  }
  return numbers;
}

const ORDINAL_STEMS: Record<string, number> = {
  erst: 1, zweit: 2, dritt: 3, viert: 4, fünft: 5, sechst: 6, siebt: 7, siebent: 7, acht: 8, neunt: 9, zehnt: 10,
  elft: 11, zwölft: 12, dreizehnt: 13, vierzehnt: 14, fünfzehnt: 15, sechzehnt: 16, siebzehnt: 17, achtzehnt: 18,
  neunzehnt: 19, zwanzigst: 20,
};
const ADJECTIVE_ENDINGS = ['e', 'en', 'er', 'es', 'em'];

/** "erste", "ersten", "erster", "erstes", "erstem" … "zwanzigste". */
function ordinals(): Record<string, number> {
  const forms: Record<string, number> = {};
  for (const [stem, value] of Object.entries(ORDINAL_STEMS)) {
    for (const ending of ADJECTIVE_ENDINGS) forms[`${stem}${ending}`] = value;
  }
  return forms;
}

const inflect = (stem: string) => ADJECTIVE_ENDINGS.map((ending) => `${stem}${ending}`);

const SUBJECTS = '(ich|wir|es|das|er|sie)';
const FINITE_VERBS = '(habe|hab|hatte|hätte|haben|hatten|bin|war|sind|waren|tue|tu|tun|mache|mach|kann|konnte|werde|würde|ist|hat|tut|gab|gibt)';
const NEGATIONS = '(nicht|nie|niemals|kein|keine|keinen|keinem|keiner|keinerlei)';

/**
 * Light German stemmer: enough for "Preise"/"Preis", "Funktionen"/"Funktion", "Kindern"/"Kind",
 * "chatten"/"Chat", "telefonieren"/"telefonisch"/"Telefon", no more. One inflectional ending
 * (-ern -em -en -er -es -e), then a plural/genitive -s after a consonant that takes one.
 */
function stemGerman(word: string): string {
  let stem = word;
  if (stem.length > 7 && stem.endsWith('ieren')) stem = stem.slice(0, -5);
  else if (stem.length > 6 && stem.endsWith('iert')) stem = stem.slice(0, -4);
  for (const ending of ['ern', 'em', 'en', 'er', 'es', 'e']) {
    if (stem.endsWith(ending) && stem.length - ending.length >= 3) {
      stem = stem.slice(0, -ending.length);
      break;
    }
  }
  if (stem.length >= 4 && /[bdfghklmnrt]s$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 6 && stem.endsWith('isch')) stem = stem.slice(0, -4);
  if (/([bdfgklmnprt])\1$/.test(stem)) stem = stem.slice(0, -1);
  return stem;
}

const TRANSCRIPTIONS: [RegExp, string][] = [
  [/ä/g, 'ae'],
  [/ö/g, 'oe'],
  [/ü/g, 'ue'],
  [/Ä/g, 'Ae'],
  [/Ö/g, 'Oe'],
  [/Ü/g, 'Ue'],
  [/ß/g, 'ss'],
];

function transcribe(text: string): string {
  return TRANSCRIPTIONS.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), text);
}

/** Adds the umlaut-free spellings ("fuenf", "weiss") of every word and phrase. */
function withTranscriptions(lexicon: AnswerLexicon): AnswerLexicon {
  const list = (words: readonly string[]) => [...new Set(words.flatMap((word) => [word, transcribe(word)]))];
  const record = (entries: Record<string, number>) =>
    Object.fromEntries(Object.entries(entries).flatMap(([word, value]) => [[word, value], [transcribe(word), value]]));
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return list(value as string[]);
    if (typeof value === 'function' || typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value);
    if (entries.every(([, entry]) => typeof entry === 'number')) return record(value as Record<string, number>);
    return Object.fromEntries(entries.map(([key, entry]) => [key, walk(entry)]));
  };
  return walk(lexicon) as AnswerLexicon;
}

const ARTICLES = ['ein', 'eine', 'einen', 'einem', 'einer', "'ne", "'nen", 'ne', 'nen'];

export const GERMAN_LEXICON: AnswerLexicon = withTranscriptions({
  apostrophes: 'drop',
  numbers: {
    units: { ...UNITS, ...compoundNumbers() },
    tens: TENS,
    hundred: ['hundert'],
    fractionPhrases: ['komma', 'einhalb', 'und (ein|eine|einen|nen|ne)? (halb|halbe|halben|viertel)'],
    // "ein"/"eine" is an article first ("eine Vier"); "eins" is the number and never a pronoun.
    pronounNumbers: [],
    pronounDeterminers: [],
    ordinals: ordinals(),
    lastWords: inflect('letzt'),
    counts: {
      einmal: 1, zweimal: 2, dreimal: 3, viermal: 4, fünfmal: 5, sechsmal: 6, siebenmal: 7, achtmal: 8, neunmal: 9,
      zehnmal: 10, einige: 3, mehrmals: 3,
    },
  },
  articles: ARTICLES,
  outOf: ['von (möglichen|maximal|insgesamt)'],
  outOfAfterNumber: ['von', 'aus'],
  ratingUnits: ['stern', 'sterne', 'sternen', 'sternchen', 'punkt', 'punkte', 'punkten', 'pkt', 'pluspunkte'],
  percentWords: ['%', 'prozent', 'proz'],
  bounds: {
    above: ['(mehr|höher|größer|besser|älter|über|öfter|häufiger) als', 'über', 'oberhalb', 'jenseits'],
    below: ['(weniger|niedriger|kleiner|schlechter|jünger|geringer|unter|seltener) als', 'unter', 'unterhalb'],
    atLeast: ['mindestens', 'wenigstens', 'zumindest', 'ab', 'nicht weniger als', 'minimum', 'min'],
    atMost: ['höchstens', 'maximal', 'max', 'bis zu', 'nicht mehr als', 'allerhöchstens', 'bestenfalls', 'allenfalls'],
    orMore: ['+', '(oder|und) (mehr|älter|darüber|höher|aufwärts|drüber)', 'plus', 'mindestens', 'aufwärts'],
    orLess: ['(oder|und) (weniger|jünger|darunter|niedriger|drunter)', 'höchstens', 'maximal', 'max', 'bestenfalls'],
  },
  rangeJoiners: ['-', 'bis'],
  rangeOpeners: ['zwischen', 'von'],
  rangeAnd: ['und', 'bis'],
  correctionPhrases: [
    'nein', 'nee', 'eigentlich', 'ich (meine|mein)', 'besser gesagt', 'oder (eher|besser|doch|vielmehr)', 'eher',
    'sorry', 'entschuldigung', 'korrektur', 'warte', 'moment', 'quatsch', 'doch lieber', 'ach nein', 'halt',
    'wenn ich es mir recht überlege', 'streich das', 'vielmehr',
  ],
  negators: ['nicht', 'nie', 'niemals', 'kein', 'keine', 'keinen', 'keinem', 'keiner', 'keines', 'weder', 'nix'],
  negationTransparent: [
    ...ARTICLES, 'der', 'die', 'das', 'den', 'dem', 'mal', 'einmal', 'so', 'ganz', 'wirklich', 'unbedingt', 'gerade',
    'eben', 'sehr', 'zu', 'gar', 'genau', 'direkt', 'besonders', 'immer', 'ich', 'es', 'ihm', 'ihr', 'ihnen', 'geben',
    'gebe', 'würde', 'würden', 'per', 'über', 'mit', 'via', 'gerne', 'gern', 'unbedingt', 'einmal', 'sogar', 'mehr',
    'wählen', 'nehmen', 'nutzen', 'benutzen',
  ],
  exclusions: [
    '(alles|alle|jedes|jede) außer', 'außer', 'statt', 'anstatt', 'anstelle von', 'abgesehen von', 'bloß nicht',
    'nur nicht', '(hasse|hassen|vermeide|vermeiden|meide)', 'ungern', 'lieber nicht',
  ],
  stopwords: [
    // articles and pronouns ("hab's" is "habs" once apostrophes drop)
    ...ARTICLES, 'der', 'die', 'das', 'den', 'dem', 'des', 'ich', 'mich', 'mir', 'mein', 'meine', 'meinen', 'meinem',
    'meiner', 'meines', 'du', 'dich', 'dir', 'dein', 'deine', 'er', 'ihn', 'ihm', 'sein', 'seine', 'seinen', 'seinem',
    'sie', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihnen', 'es', 'wir', 'uns', 'unser', 'unsere', 'unseren', 'euch', 'euer',
    'man', 'dies', 'diese', 'dieser', 'dieses', 'diesen', 'diesem', 'jene', 'jener', 'welche', 'welcher', 'welches',
    'was', 'wer', 'wen', 'wem', 'selbst', 'sich', 'habs', 'hats', 'gibts', 'gehts', 'ists', 'wars', 'wirds', 'machs',
    'damit', 'dafür', 'davon', 'dabei', 'darüber', 'daran', 'darauf', 'drauf', 'drin', 'dazu', 'daher', 'deshalb',
    // auxiliaries and modals
    'bin', 'bist', 'ist', 'sind', 'seid', 'war', 'waren', 'warst', 'wäre', 'wären', 'gewesen', 'habe', 'hab', 'hast',
    'hat', 'haben', 'habt', 'hatte', 'hatten', 'hätte', 'hätten', 'gehabt', 'werde', 'wirst', 'wird', 'werden',
    'würde', 'würden', 'würdest', 'worden', 'kann', 'kannst', 'können', 'konnte', 'könnte', 'könnten', 'muss',
    'müssen', 'musste', 'sollte', 'sollten', 'soll', 'darf', 'will', 'wollte', 'möchte', 'möchten', 'tue', 'tut',
    // prepositions and conjunctions
    'von', 'vom', 'zu', 'zum', 'zur', 'in', 'im', 'ins', 'an', 'am', 'ans', 'auf', 'aus', 'bei', 'beim', 'mit',
    'nach', 'seit', 'über', 'unter', 'für', 'gegen', 'ohne', 'um', 'durch', 'bis', 'per', 'pro', 'vor', 'hinter',
    'neben', 'zwischen', 'während', 'wegen', 'trotz', 'als', 'wie', 'via', 'und', 'oder', 'aber', 'denn', 'weil',
    'da', 'wenn', 'ob', 'dass', 'daß', 'sondern', 'sowie', 'also', 'doch', 'sowohl', 'weder', 'noch',
    // determiners, quantifiers, negators and grammatical adverbs
    'alle', 'alles', 'allem', 'allen', 'aller', 'jede', 'jeder', 'jeden', 'jedes', 'jedem', 'kein', 'keine', 'keinen',
    'keinem', 'keiner', 'keines', 'viel', 'viele', 'vielen', 'wenig', 'wenige', 'mehr', 'meisten', 'meiste',
    'weniger', 'beide', 'beiden', 'andere', 'anderen', 'nicht', 'nie', 'niemals', 'auch', 'schon', 'nur', 'sogar',
    'hier', 'dort', 'dann', 'jetzt', 'nun', 'so', 'sehr', 'ganz', 'wieder', 'immer', 'bereits', 'eben', 'gerade',
    'warum', 'wo', 'wann', 'erst', 'zwar', 'nix',
  ],
  discourseWords: [
    'ja', 'jo', 'jep', 'jap', 'jup', 'joa', 'nee', 'nö', 'ok', 'okay', 'okey', 'naja', 'na', 'äh', 'ähm', 'öhm',
    'hm', 'hmm', 'mhm', 'tja', 'ach', 'oh', 'ah', 'vielleicht', 'wahrscheinlich', 'vermutlich', 'eventuell',
    'bestimmt', 'sicher', 'sicherlich', 'definitiv', 'absolut', 'ehrlich', 'eigentlich', 'halt', 'quasi',
    'sozusagen', 'insgesamt', 'generell', 'grundsätzlich', 'meistens', 'normalerweise', 'manchmal', 'ziemlich',
    'recht', 'relativ', 'eher', 'etwa', 'ungefähr', 'circa', 'ca', 'rund', 'knapp', 'fast', 'beinahe', 'locker',
    'glatt', 'glatte', 'glatten', 'solide', 'soliden', 'gute', 'guten', 'klare', 'klaren', 'starke', 'starken',
    'gebe', 'geben', 'gib', 'gäbe', 'gegeben', 'vergebe', 'vergeben', 'bewerte', 'bewerten', 'sage', 'sagen', 'sag',
    'gesagt', 'denke', 'denk', 'glaube', 'glaub', 'meine', 'finde', 'fände', 'schätze', 'schätz', 'tippe', 'nehme',
    'nehmen', 'wähle', 'wählen', 'heute', 'aktuell', 'momentan', 'derzeit', 'danke', 'bitte', 'persönlich',
    'irgendwo', 'irgendwie', 'bisschen', 'echt', 'total', 'wirklich', 'voll', 'gerne', 'gern', 'lieber', 'liebsten',
    'sorry', 'warte', 'plus', 'stern', 'sterne', 'punkt', 'punkte', 'verdient', 'verdienen', 'wert', 'würd',
    'klar', 'genau', 'natürlich', 'jedenfalls', 'sowieso', 'ehrlicherweise', 'spontan', 'grob', 'gefühlt',
    'tatsächlich', 'wohl', 'ganz', 'dennoch', 'trotzdem', 'stattdessen', 'sonst', 'einfach',
  ],
  referenceWords: [
    'option', 'nummer', 'nr', 'antwort', 'wahl', 'möglichkeit', 'variante', 'buchstabe', 'alternative', 'auswahl',
    'antwortmöglichkeit', 'punkt',
  ],
  ordinalNouns: [
    'option', 'optionen', 'möglichkeit', 'antwort', 'variante', 'auswahl', 'alternative', 'wahl', 'davon',
    'antwortmöglichkeit',
  ],
  meaningShifters: [
    'nicht', 'kein', 'keine', 'keinen', 'nie', 'niemals', 'weniger', 'mehr', 'seltener', 'öfter', 'häufiger', 'unter',
    'über', 'ohne', 'außer', 'höchstens', 'mindestens', 'nur', 'weder', 'ab', 'bis',
  ],
  intensifiers: [
    'sehr', 'extrem', 'äußerst', 'total', 'völlig', 'komplett', 'ganz', 'ziemlich', 'recht', 'relativ', 'eher',
    'etwas', 'leicht', 'besonders', 'wirklich', 'super', 'echt', 'absolut', 'höchst', 'überaus', 'voll', 'mega',
    'richtig', 'kaum', 'überhaupt', 'ausgesprochen', 'außerordentlich', 'unglaublich', 'so', 'zu', 'am',
  ],
  downtoners: [
    'ziemlich', 'recht', 'relativ', 'eher', 'etwas', 'ein bisschen', 'ein wenig', 'einigermaßen', 'halbwegs', 'ganz',
    'fast', 'beinahe', 'nicht ganz', 'mehr oder weniger', 'leicht', 'mäßig', 'teilweise', 'irgendwie', 'so halbwegs',
    'knapp',
  ],
  polarity: {
    yes: [
      'ja', 'jo', 'jap', 'jep', 'jup', 'joa', 'jawohl', 'jawoll', 'jaja', 'jaa', 'jaaa', 'yes', 'yep', 'genau',
      'klar', '(na|aber|ganz) klar', 'klar doch', 'natürlich', 'selbstverständlich', 'sicher', 'sicherlich',
      'na sicher', 'bestimmt', 'definitiv', 'absolut', 'auf jeden fall', 'auf alle fälle', 'jedenfalls', 'stimmt',
      '(das|es) stimmt', 'richtig', '(das|es) ist (richtig|korrekt|wahr)', 'korrekt', 'zutreffend', 'trifft zu',
      'allerdings', 'freilich', 'logisch', 'gewiss', 'durchaus', 'in der tat', 'zweifellos', 'ohne (zweifel|frage)',
      'mhm', 'mhmm', 'aha', 'jupp', 'sehr gerne', 'gerne', 'gern',
      '(ich)? (glaube|glaub|denke|denk|schätze|schätz|meine|würde sagen|würd sagen) (schon|ja|doch)',
      '(ja|eher ja|wohl|eher|eigentlich|wahrscheinlich|vermutlich|schon) (schon|doch)', 'aber ja', 'warum nicht', 'wieso nicht',
    ],
    no: [
      'nein', 'nee', 'neee', 'nö', 'nöö', 'nope', 'nein danke', 'nie', 'niemals', 'noch nie', 'noch nicht',
      'nie im leben', 'auf keinen fall', 'keinesfalls', 'keineswegs', 'mitnichten', 'absolut nicht',
      'überhaupt nicht', 'gar nicht', 'eher nicht', 'nicht wirklich', 'nicht so (richtig|wirklich|sehr|ganz)?',
      'nicht unbedingt', 'nicht ganz', 'nicht mehr', 'nicht (besonders|sonderlich|direkt|genau|oft|so oft)',
      'leider nicht', 'eigentlich nicht', 'wohl nicht', 'sicher nicht', 'bestimmt nicht', 'definitiv nicht',
      'natürlich nicht', 'klar nicht',
      '(ich)? (glaube|glaub|denke|denk|schätze|schätz|meine) (eher)? nicht', 'glaube ich nicht', 'denke ich nicht',
      'nicht dass ich (wüsste|mich erinnern könnte|mich erinnere|es gemerkt hätte)', 'soweit ich weiß nicht',
      'kein bisschen', 'nichts', 'gar nichts', 'falsch', '(das|es)? stimmt nicht', 'trifft nicht zu', 'kaum',
      'negativ', 'nicht die bohne',
    ],
    unsure: [
      'vielleicht', 'eventuell', 'möglicherweise', 'unsicher', 'ungewiss', 'unklar', 'keine ahnung',
      '(ich)? weiß (es|das|ich)? (nicht|nich|net) (so)? (genau|recht|mehr)?', 'weiß nicht', 'weiß ich nicht',
      'weiß nich', '(ich bin|bin)? (mir|ich)? nicht (so|ganz|ganz so|wirklich|hundertprozentig|100 %|so ganz)? sicher',
      'nicht so sicher', 'kommt (drauf|darauf) an', '(es|das)? hängt davon ab', 'je nachdem',
      '(schwer|schwierig) zu sagen', 'kann ich (nicht|schlecht|so nicht) sagen', 'jein', 'teils teils', 'teils , teils',
      'halb halb', 'fifty fifty', '50 / 50', '(ich)? (kann|könnte) (mich)? (nicht|kaum) (mehr)? erinnern',
      '(ich)? (erinnere|entsinne) mich nicht', 'k . a .', 'ka', 'wer weiß', 'mal sehen', 'mal schauen',
      'keinen (plan|schimmer)', 'kein (plan|schimmer)', 'ich habe keine ahnung', 'unentschlossen', 'sowohl als auch',
    ],
    noParticles: [],
    particleFollowers: [],
    clauseFinalNegators: ['nicht', 'nie', 'niemals', 'nich', 'net'],
    shortYes: [
      `${SUBJECTS} ${FINITE_VERBS}`,
      `${FINITE_VERBS} ${SUBJECTS}`,
      'doch',
      '(ich)? (glaube|glaub|denke|denk|schätze) (ich)?',
    ],
    shortNo: [`${SUBJECTS}? ${FINITE_VERBS} ${SUBJECTS}? (es|das)? ${NEGATIONS}`],
    clauseNo: [
      `${SUBJECTS} ${FINITE_VERBS} (es|das|sie|ihn)? (noch|bisher|bislang|leider)? (nie|niemals|kein|keine|keinen|keinerlei)`,
      `${FINITE_VERBS} ${SUBJECTS} (es|das|sie|ihn)? (noch|bisher|bislang|leider)? (nie|niemals|kein|keine|keinen|keinerlei|nicht)`,
      'noch (nicht|nie|kein|keine|keinen)', 'bisher (nicht|nie|kein|keine|keinen)', 'bislang (nicht|nie|kein|keine)',
    ],
    answerTail: [
      'ja', 'schon', 'auch', 'bereits', 'einmal', 'zweimal', 'dreimal', 'mehrmals', 'mal', 'öfter', 'oft', 'häufig',
      'immer', 'regelmäßig', 'jeden', 'täglich', 'wöchentlich', 'tatsächlich', 'wirklich', 'eigentlich', 'natürlich',
      'klar', 'definitiv', 'sogar', 'noch', 'gestern', 'heute', 'letzte', 'letzten', 'aber', 'und', 'also', 'doch',
      'danke', 'genau', 'es', 'das', 'sicher', 'bestimmt', 'gerne', 'gern', 'zum', 'beispiel', 'ein', 'paar', 'paarmal',
      'sehr', 'durchaus', 'absolut', 'ehrlich', 'gesagt', 'ab', 'und', 'zu', 'selten', 'manchmal', 'neulich', 'kürzlich',
    ],
  },
  open: {
    fillers: [
      'äh', 'ähm', 'öhm', 'öh', 'hm', 'hmm', 'mhm', 'na ja', 'naja', 'also', 'tja', 'ach', 'oh', 'ah', 'halt', 'eben',
      'eigentlich', 'ehrlich gesagt', 'ehrlich', 'ich meine', 'ich denke', 'ich glaube', 'ich finde', 'ich würde sagen',
      'würde ich sagen', 'sagen wir mal', 'sozusagen', 'quasi', 'irgendwie', 'mal sehen', 'lass mich (überlegen|nachdenken)',
      'im großen und ganzen', 'insgesamt', 'im (allgemeinen|grunde)', 'grundsätzlich', 'generell', 'bitte', 'so',
      'wie gesagt', 'ganz ehrlich', 'um ehrlich zu sein', 'wirklich', 'echt', 'einfach', 'auf jeden fall', 'schon',
      'ja gut', 'sag ich mal',
    ],
    nonCommittal: [
      '(ich)? weiß (es|das|ich)? nicht (so)? (genau|recht)?', 'weiß nicht', 'weiß nich', 'keine ahnung',
      'k . a .', 'ka', '(ich bin|bin)? (mir|ich)? nicht (so|ganz|wirklich)? sicher', '(eigentlich|gar|sonst)? nichts',
      'nichts (besonderes|weiter|mehr|wirklich|konkretes|spezielles|bestimmtes|auffälliges|großartiges|wichtiges)',
      '(mir)? fällt (mir)? (gerade|jetzt|spontan)? nichts (weiter|mehr|anderes)? (ein|auf)',
      'nichts (hinzuzufügen|zu ergänzen|zu sagen|zu meckern|zu beanstanden)', 'nichts (fällt|fiel) (mir)? (ein|auf)',
      '(ich)? (kann|könnte) mich nicht (mehr)? erinnern', 'wie (immer|vorher|bisher|sonst|gehabt|üblich|gewohnt|letztes mal)',
      '(alles)? beim alten', '(eigentlich)? (genauso|gleich|das gleiche|dasselbe|dasselbe wie immer)',
      '(schwer|schwierig) zu sagen', 'kein kommentar', 'keine meinung', 'keine beschwerden', 'keine probleme',
      'kein problem', '(ist mir)? egal', 'nein', 'nee', 'nö', 'ja', 'jo', 'jap', 'vielleicht', 'kommt (drauf|darauf) an',
      'geht so', 'so lala', 'so la la', 'mittelmäßig', 'passt (schon)?', 'alles gut', 'alles (in ordnung|okay|ok|super|prima|bestens|klar|fein|top|toll|gut)',
      'in ordnung', 'nicht schlecht', 'könnte (besser|schlechter) sein', 'kann (mich)? nicht (klagen|beschweren)',
      'nicht viel', 'nicht wirklich', 'nicht so viel', 'keine ahnung', 'kein plan', 'k.a.', 'nichts zu sagen',
      'weiß ich nicht', 'das übliche', 'wie erwartet',
    ],
    verdicts: [
      ...inflect('gut'), 'gut', 'ok', 'okay', 'okey', 'fein', 'prima', 'super', 'toll', 'klasse', 'spitze', 'top',
      'genial', 'schön', ...inflect('schön'), 'nett', 'cool', 'perfekt', 'ausgezeichnet', 'hervorragend', 'großartig',
      'wunderbar', 'schlecht', ...inflect('schlecht'), 'furchtbar', 'schrecklich', 'mies', 'katastrophal',
      'besser', ...inflect('besser'), 'beste', 'besten', 'schlechteste', 'zufrieden', 'unzufrieden', 'glücklich',
      'einfach', 'leicht', 'schwer', 'schwierig', 'kompliziert', 'nützlich', 'hilfreich', 'praktisch', 'interessant',
      'funktioniert', 'funktionierte', 'funktionieren', 'geht', 'ging', 'läuft', 'lief', 'passt', 'mag', 'mochte',
      'liebe', 'gefällt', 'gefallen', 'gefiel', 'hasse', 'ordnung', 'angenehm', 'solide', 'okay', 'egal', 'gleich',
    ],
    generic: [
      'app', 'apps', 'anwendung', 'programm', 'produkt', 'tool', 'software', 'dienst', 'service', 'plattform',
      'system', 'ding', 'dinge', 'sache', 'sachen', 'zeug', 'alles', 'etwas', 'irgendwas', 'was', 'erfahrung',
      'erlebnis', 'ganze', 'ganzen', 'ganzes', 'teil', 'bisschen', 'ganz', 'ziemlich', 'echt', 'wirklich', 'eigentlich',
      'soweit', 'damit', 'insgesamt', 'überall',
    ],
  },
  stem: stemGerman,
});
