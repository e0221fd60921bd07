import type { AnswerLexicon } from './lexicon.js';

/*
 * Words are written with their accents; text.ts folds diacritics on both sides ("sûr" and "sur"
 * meet). Apostrophes split, so "j'ai" is "j" + "ai", "l'option" is "l" + "option" and "n'est" is
 * "n" + "est": the elided forms (j, l, d, n, qu, c, s, m, t) are words of their own.
 */
const SUBJECTS = '(je|j|on|nous|vous|il|elle|ils|elles|ça|cela|ce|c|tu)';
/** Object and adverbial pronouns between subject and verb: "je ne l'ai pas", "je n'en ai pas", "je m'en sers". */
const CLITICS = '(l|le|la|les|en|y|m|me|t|te|s|se|lui|leur)? (l|en|y)?';
/** Auxiliaries and the common verbs of a short answer ("je l'ai", "je n'utilise pas"). No "sais": "je ne sais pas" is uncertainty. */
const VERBS =
  '(ai|as|a|avons|avez|ont|avais|avait|avions|aviez|avaient|aurais|aurait|fais|fait|faisons|font|faisais|faisait|utilise|utilises|utilisons|utilisent|' +
  'utilisais|utilisait|sers|sert|peux|peut|pouvons|pouvais|pouvait|veux|veut|voulais|vais|va|allais|' +
  'connais|connaissais|trouve|trouvais|aime|aimais|vois|voyais|souhaite|compte|pratique|regarde|reçois|reçu|' +
  'ressens|ressenti|rencontre|ouvre|achète|paye|paie|recommande|recommanderais|referais|utiliserais)';
const NEGATION_END = '(pas|jamais|plus|point|guère|vraiment pas|pas vraiment|pas encore|toujours pas|pas du tout)';

/** Light French stemmer: plural -s/-x, -aux, feminine -e, -é/-er, enough for "semaines"/"semaine", "utilisée"/"utiliser". */
function stemFrench(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('aux')) stem = `${stem.slice(0, -3)}al`;
  else if (stem.length > 3 && /[sx]$/.test(stem) && !/(ss|us|is)$/.test(stem)) stem = stem.slice(0, -1);
  if (stem.length > 5 && stem.endsWith('er')) stem = stem.slice(0, -2);
  else if (stem.length > 4 && stem.endsWith('ee')) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  if (stem.length > 4 && /([lnst])\1$/.test(stem)) stem = stem.slice(0, -1); // "tablett" / "tablet", "bonn" / "bon"
  return stem;
}

/**
 * French. "un"/"une" are not numbers here: they are above all the article ("un quatre", "une
 * note de 4"), and reading them as 1 would make "un quatre" two numbers. A 1 must be said "1".
 * "dix" is a ten so that "dix-sept".."dix-neuf" join; the parser joins a ten and a unit only
 * across a hyphen, so "vingt et un" and "soixante-dix" / "quatre-vingt(s)" cannot be read
 * ("et un"/"et une" mark the number as not whole, so they come back null rather than 20).
 */
export const FRENCH_LEXICON: AnswerLexicon = {
  apostrophes: 'split',
  numbers: {
    units: {
      zéro: 0, deux: 2, trois: 3, quatre: 4, cinq: 5, six: 6, sept: 7, huit: 8, neuf: 9, onze: 11, douze: 12,
      treize: 13, quatorze: 14, quinze: 15, seize: 16,
    },
    tens: {
      dix: 10, vingt: 20, trente: 30, quarante: 40, cinquante: 50, soixante: 60,
      // Belgian and Swiss French
      septante: 70, huitante: 80, octante: 80, nonante: 90,
    },
    hundred: ['cent', 'cents'],
    fractionPhrases: ['et (demi|demie)', 'et (un|le)? quart', 'et (trois)? quarts', 'virgule', 'et (un|une|onze)'],
    pronounNumbers: [],
    pronounDeterminers: [],
    ordinals: {
      premier: 1, première: 1, premiers: 1, premières: 1, second: 2, seconde: 2, deuxième: 2, troisième: 3,
      quatrième: 4, cinquième: 5, sixième: 6, septième: 7, huitième: 8, neuvième: 9, dixième: 10, onzième: 11,
      douzième: 12, treizième: 13, quatorzième: 14, quinzième: 15, seizième: 16, vingtième: 20,
    },
    lastWords: ['dernier', 'dernière'],
    counts: {},
  },
  articles: ['un', 'une'],
  outOf: ['sur'],
  outOfAfterNumber: [],
  ratingUnits: ['étoile', 'étoiles', 'point', 'points', 'pts', 'pt'],
  percentWords: ['%', 'pour cent', 'pourcent', 'pourcents', 'pour-cent'],
  bounds: {
    above: [
      '(plus|davantage) (de|que|d)', '(supérieur|supérieure|supérieurs) (à|a)', 'au (dessus|-dessus) de',
      'au - dessus de', '(plus âgé|plus âgée|plus vieux|plus vieille) que', 'au-delà de', 'au delà de',
    ],
    below: [
      'moins (de|que|d)', '(inférieur|inférieure|inférieurs) (à|a)', 'en (dessous|-dessous) de', 'en - dessous de',
      'au - dessous de', 'sous', '(plus jeune|plus jeunes) que',
    ],
    atLeast: ['au moins', 'au minimum', 'minimum', 'pas moins (de|que|d)', 'minimum de'],
    atMost: ['au plus', 'au maximum', 'maximum', 'max', 'pas plus (de|que|d)', "jusqu' (à|a)", 'à la limite', 'tout au plus'],
    orMore: [
      '+', 'ans? (ou|et) (plus|davantage|+|au-delà|au delà|plus âgé|plus âgée)', 'ans? et au - delà',
      'au moins', 'minimum', 'au minimum',
    ],
    orLess: ['ans? (ou|et) (moins|moins âgé|plus jeune)', 'au plus', 'au maximum', 'maximum', 'max', 'grand maximum'],
  },
  rangeJoiners: ['-', 'à', "jusqu' à", 'au'],
  rangeOpeners: ['entre', 'de'],
  rangeAnd: ['et', 'à'],
  correctionPhrases: [
    'en fait', 'enfin', 'non (attends|attendez|pardon|en fait|plutôt)', 'attends', 'attendez', 'je veux dire',
    'ou plutôt', 'plutôt', 'pardon', 'je me (corrige|suis trompé|suis trompée)', 'finalement', 'non', 'disons',
    'à la réflexion', 'tout compte fait', 'réflexion faite', 'mettons',
  ],
  negators: ['pas', 'ne', 'n', 'jamais', 'ni', 'aucun', 'aucune', 'sans', 'guère', 'point', 'nullement', 'aucunement'],
  negationTransparent: [
    'un', 'une', 'le', 'la', 'les', 'l', 'd', 'de', 'du', 'même', 'vraiment', 'forcément', 'tout', 'à', 'fait',
    'exactement', 'juste', 'si', 'très', 'trop', 'tellement', 'donne', 'donner', 'donnerais', 'mets', 'mettre',
    'mettrais', 'mis', 'lui', 'y', 'je', 'j', 'ce', 'c', 'est', 'serait', 'était', 'ai', 'choisi', 'choisis',
    'choisir', 'choisirais', 'prends', 'prendre', 'prendrais', 'pris', 'par', 'via', 'avec', 'utilise',
    'utiliser', 'utiliserais', 'particulièrement', 'totalement', 'complètement', 'toujours', 'encore', 'note',
    'noter', 'noterais', 'dirais', 'dire', 'aller', 'irais', 'vais', 'voudrais', 'veux', 'préfère', 'préférerais',
    'en', 'spécialement', 'surtout', 'là', 'ça', 'cela',
  ],
  exclusions: [
    '(tout|tous|toutes|n importe (quoi|lequel|laquelle)) sauf', 'sauf', 'excepté', 'à part', 'hormis',
    'au lieu (de|du|d)', 'plutôt que', 'autre que', '(déteste|détestais|évite|évites|supporte pas)',
    'surtout pas',
  ],
  stopwords: [
    // articles, pronouns and elided forms (apostrophes split: "j'ai" is "j" + "ai")
    'le', 'la', 'les', 'l', 'un', 'une', 'des', 'du', 'de', 'd', 'au', 'aux', 'je', 'j', 'me', 'm', 'moi', 'tu',
    'te', 't', 'toi', 'il', 'elle', 'on', 'nous', 'vous', 'ils', 'elles', 'se', 's', 'soi', 'lui', 'leur', 'leurs',
    'eux', 'mon', 'ma', 'mes', 'ton', 'ta', 'tes', 'son', 'sa', 'ses', 'notre', 'nos', 'votre', 'vos', 'ce', 'c',
    'ça', 'cela', 'ceci', 'cet', 'cette', 'ces', 'celui', 'celle', 'ceux', 'celles', 'qui', 'que', 'qu', 'quoi',
    'dont', 'où', 'lequel', 'laquelle', 'lesquels', 'lesquelles', 'y', 'en',
    // auxiliaries and light verbs
    'suis', 'es', 'est', 'sommes', 'êtes', 'sont', 'étais', 'était', 'étions', 'étaient', 'été', 'être', 'serais',
    'serait', 'sera', 'ai', 'as', 'a', 'avons', 'avez', 'ont', 'avais', 'avait', 'avaient', 'eu', 'avoir',
    'aurais', 'aurait', 'fais', 'fait', 'faire', 'peux', 'peut', 'pouvait', 'pourrait', 'dois', 'doit', 'vais',
    'va', 'vont', 'allais', 'soit', 'suis',
    // prepositions and conjunctions
    'à', 'dans', 'sur', 'sous', 'avec', 'sans', 'pour', 'par', 'chez', 'vers', 'entre', 'depuis', 'pendant',
    'avant', 'après', 'contre', 'selon', 'via', 'comme', 'et', 'ou', 'mais', 'donc', 'or', 'ni', 'car', 'si',
    'quand', 'lorsque', 'puis', 'parce', 'puisque', 'voire', 'dès', 'jusqu', 'jusque',
    // determiners, quantifiers, negators and grammatical adverbs
    'tout', 'tous', 'toute', 'toutes', 'chaque', 'quelques', 'quelque', 'plusieurs', 'autre', 'autres', 'même',
    'mêmes', 'aucun', 'aucune', 'ne', 'n', 'pas', 'plus', 'moins', 'jamais', 'très', 'trop', 'aussi', 'encore',
    'déjà', 'seulement', 'juste', 'assez', 'peu', 'beaucoup', 'ici', 'là', 'maintenant', 'toujours', 'comment',
    'pourquoi', 'tant', 'tellement', 'si', 'non', 'oui',
    // ordinal suffixes after digits, which the tokenizer splits off: "2e", "2ème", "1er", "1re"
    'e', 'eme', 'ème', 'er', 're', 'ère',
  ],
  discourseWords: [
    'ouais', 'ouai', 'ok', 'okay', 'accord', 'bon', 'ben', 'bah', 'beh', 'euh', 'heu', 'euhh', 'hum', 'hmm', 'hm',
    'mmh', 'ah', 'oh', 'eh', 'bien', 'alors', 'enfin', 'voilà', 'peut', 'être', 'probablement', 'sûrement',
    'certainement', 'absolument', 'vraiment', 'franchement', 'honnêtement', 'fait', 'finalement', 'globalement',
    'généralement', 'plutôt', 'environ', 'près', 'presque', 'quasiment', 'facilement', 'largement', 'clairement',
    'doute', 'dire', 'dirais', 'dis', 'dit', 'pense', 'crois', 'trouve', 'mets', 'mettrais', 'mettre', 'mis',
    'donne', 'donnerais', 'donner', 'note', 'noterais', 'noter', 'choisis', 'choisirais', 'prendrais', 'prends',
    'opte', 'opterais', 'suppose', 'imagine', 'sais', 'sûr', 'sûre', 'merci', 'svp', 'stp', 'perso',
    'personnellement', 'lol', 'mdr', 'disons', 'mettons', 'genre', 'quoi', 'hein', 'voyons', 'attends', 'attendez',
    'pardon', 'désolé', 'désolée', 'max', 'maximum', 'minimum', 'étoile', 'étoiles', 'mérite', 'vaut',
    'actuellement', 'aujourd', 'hui', 'sinon', 'bref', 'surtout',
    'serais', 'vais', 'aller', 'irais', 'préfère', 'préférerais', 'moyenne', 'part', 'hésiter', 'hésitation',
  ],
  referenceWords: ['option', 'numéro', 'no', 'num', 'choix', 'réponse', 'lettre', 'proposition', 'item'],
  ordinalNouns: ['option', 'options', 'choix', 'réponse', 'proposition', 'possibilité', 'solution', 'item'],
  meaningShifters: [
    'pas', 'non', 'ne', 'n', 'jamais', 'moins', 'plus', 'que', 'qu', 'sous', 'sans', 'sauf', 'dessus', 'dessous',
    'aucun', 'aucune', 'ni', 'seulement', 'davantage', 'au-delà',
  ],
  intensifiers: [
    'très', 'extrêmement', 'vraiment', 'totalement', 'complètement', 'hyper', 'super', 'absolument', 'plutôt',
    'assez', 'peu', 'légèrement', 'si', 'tellement', 'trop', 'fortement', 'particulièrement', 'entièrement',
    'moyennement', 'plus', 'moins', 'tout', 'relativement',
  ],
  downtoners: [
    'plutôt', 'assez', 'un peu', 'un petit peu', 'moyennement', 'relativement', 'à peu près', 'presque',
    'quasiment', 'pas tout à fait', 'plus ou moins', 'limite', 'légèrement', 'pas si', 'pas très', 'pas vraiment',
  ],
  polarity: {
    yes: [
      'oui', 'ouais', 'ouai', 'ouep', 'ouaip', 'ui', 'yes', 'bien sûr', 'bien entendu', 'évidemment', 'absolument',
      'tout à fait', 'exactement', 'exact', 'effectivement', 'en effet', 'certainement', 'certes', 'carrément',
      'clairement', 'assurément', 'volontiers', 'sans aucun doute', 'sans l ombre d un doute', 'sans hésiter', 'sans hésitation', 'affirmatif',
      'mais oui', 'bien sûr que oui', 'oui oui', "d' accord", 'ok', 'okay', 'parfaitement',
      "(c'est|ce serait|c'était|cest) (ça|cela|vrai|exact|juste|correct|le cas|bien ça)", 'tout le temps',
      'pourquoi pas', '(je|j)? (pense|crois|dirais|suppose|imagine) (bien)? que oui', 'il me semble', 'en effet',
      'vous avez raison', 'tu as raison', 'sans faute', 'complètement', 'totalement',
    ],
    no: [
      'nope', 'pas du tout', 'du tout', 'pas vraiment', 'absolument pas', 'certainement pas',
      'sûrement pas', 'évidemment pas', 'vraiment pas', 'carrément pas', 'bien sûr que non', 'jamais', 'pas encore',
      'toujours pas', 'plus maintenant', 'plus du tout', 'pas une seule fois', 'pas question', 'hors de question',
      'aucunement', 'nullement', 'négatif', 'faux', 'pas (trop|tellement|spécialement|particulièrement|beaucoup|souvent|franchement|forcément|exactement|vraiment|non plus)',
      "(je|j)? (ne|n)? (pense|crois) pas", '(je|j)? (pense|crois|dirais|suppose) (bien)? que non',
      'pas que je sache', 'pas à ma connaissance', 'pas que je me souvienne', 'non merci', 'aucun', 'aucune',
      'rien', 'rien du tout', 'pas le moins du monde', 'ni l un ni l autre',
      '(ce|c|ça) (n)? (est|était|serait) pas (le cas|vrai|ça|exact|correct)', 'pas tellement', 'que dalle',
    ],
    unsure: [
      'peut-être', 'peut être', 'possiblement', 'éventuellement', 'possible', 'incertain', 'incertaine',
      '(ça|cela|tout)? dépend', '(je|j)? (ne|n)? (suis)? pas (vraiment|trop|tout à fait|très|si|totalement|complètement|100 %)? (sûr|sûre|certain|certaine|sûrs|sûres)',
      '(je|j)? (ne|n)? (sais|savais|saurais) (pas|plus|trop pas|pas trop|pas vraiment|pas du tout)',
      '(chais|chépa|sais) pas', 'jsp', 'je sais pas',
      '(je|j)? (ne|n)? (m|me)? (en)? (souviens|rappelle|souvient) (pas|plus)',
      '(je|j)? (ne|n)? (peux|saurais|pourrais) pas (vraiment)? (dire|répondre)',
      '(aucune|pas d|pas la moindre|pas une) idée', '(je|j)? (n)? (en)? (sais|sait) rien',
      '(difficile|dur|compliqué|délicat) (à|de) (dire|savoir|répondre)', 'qui sait', 'allez savoir',
      '(moitié|cinquante|50) (moitié|cinquante|50)', '50 / 50', '(je|j) hésite', 'aucun avis', 'sans avis',
      'pas d avis', 'je me (demande|pose la question)',
    ],
    noParticles: ['non', 'nan'],
    particleFollowers: [
      'je', 'j', 'on', 'nous', 'il', 'elle', 'ils', 'elles', 'c', 'ce', 'ça', 'cela', 'le', 'la', 'les', 'l', 'pas',
      'jamais', 'merci', 'désolé', 'désolée', 'malheureusement', 'franchement', 'honnêtement', 'vraiment', 'mais',
      'et', 'parce', 'car', 'plus', 'rien', 'aucun', 'aucune', 'absolument', 'toujours', 'vous', 'tu', 'n', 'ne',
      'non', 'trop', 'pourquoi', 'du', 'en', 'sinon', 'même', 'alors', 'hélas', 'bien', 'certainement', 'nan',
    ],
    clauseFinalNegators: ['pas', 'jamais'],
    shortYes: [
      `${SUBJECTS} ${CLITICS} (ai|avons|ont|a|suis|sommes|est|était|fais|fait|faisons|utilise|utilisons|sers|pense|crois|aime|connais)`,
      `${SUBJECTS} ${CLITICS} (ai|avons|ont|a) (fait|été|eu|utilisé|essayé|testé|vu|aimé|trouvé|reçu)`,
      '(je|j) (crois|pense|suppose|imagine) (bien)?', 'il me semble', '(ça|ce|c) (m|nous) (est|arrive) arrivé?',
    ],
    shortNo: [
      `${SUBJECTS} (ne|n)? ${CLITICS} (suis|est|était|sont|étaient|étais|serait|serais) ${NEGATION_END}`,
      `${SUBJECTS} (ne|n)? ${CLITICS} (ai|avons|ont|a|fais|fait|utilise|sers|aime|connais) ${NEGATION_END}`,
      `${SUBJECTS} (ne|n)? ${CLITICS} (ai|avons|ont|a) ${NEGATION_END} (fait|été|eu|utilisé|essayé|testé|vu|aimé|reçu)`,
    ],
    clauseNo: [
      `${SUBJECTS} (ne|n) ${CLITICS} ${VERBS} ${NEGATION_END}`,
      `${SUBJECTS} ${CLITICS} ${VERBS} ${NEGATION_END}`,
      `${SUBJECTS} (ne|n)? (me|m|nous|l|y|en)? (ai|a|avons|ont|suis|est|sommes|sont) ${NEGATION_END} (encore)? (fait|été|eu|utilisé|essayé|testé|vu|aimé|servi|reçu|trouvé|eu le temps|installé|ouvert)`,
    ],
    answerTail: [
      'oui', 'ouais', 'vraiment', 'aussi', 'déjà', 'avant', 'une', 'fois', 'deux', 'plusieurs', 'souvent', 'encore',
      'franchement', 'honnêtement', 'certainement', 'absolument', 'effectivement', 'tout', 'temps', 'tous', 'les',
      'jours', 'toujours', 'parfois', 'régulièrement', 'récemment', 'maintenant', 'aujourd', 'hui', 'bien',
      'mais', 'et', 'donc', 'merci', 'même', 'quelques', 'beaucoup', 'je', 'crois', 'pense', 'non', 'plus',
    ],
  },
  open: {
    fillers: [
      'euh', 'euhh', 'heu', 'hum', 'hmm', 'hm', 'mmh', 'mh', 'ah', 'oh', 'eh', 'bah', 'ben', 'beh', 'bon', 'alors',
      'en fait', 'enfin', 'genre', 'du coup', 'franchement', 'honnêtement', 'vraiment', 'juste', 'je veux dire',
      'tu vois', 'vous voyez', 'disons', 'voilà', 'je (pense|crois|suppose|trouve)', 'je dirais', "j' dirais",
      '(pour|à) (être|vrai) (honnête|dire)', 'pour être franc', 'bref', 'quoi', 'hein', 'eh bien', 'en gros',
      'globalement', 'en général', 'généralement', 'dans l ensemble', 'sinon', 'laisse (moi|-moi) réfléchir',
      'laissez (moi|-moi) réfléchir', 'voyons', 'attends', 'svp', 's il (te|vous) plaît', 'personnellement', 'perso',
      'pour moi', 'à mon avis', 'selon moi', 'il me semble', 'un peu', 'plutôt', 'assez', 'sincèrement',
    ],
    nonCommittal: [
      '(je|j)? (ne|n)? (sais|saurais) (pas|plus) (trop|vraiment)?', '(chais|chépa|sais) pas', 'jsp', 'jcp',
      '(aucune|pas d|pas la moindre) idée', '(je|j)? (ne|n)? (suis)? pas (trop|vraiment|très)? (sûr|sûre|certain|certaine)',
      'rien', 'rien (de spécial|de particulier|à signaler|à dire|à ajouter|de plus|du tout|de spécial à signaler|de neuf|à redire)',
      '(rien|aucune idée) ne me (vient|revient) (à l esprit|en tête)?', 'rien ne (me)? (saute aux yeux|ressort)',
      'pas grand (chose|-chose)', 'pas grand - chose', '(je|j)? (ne|n)? (vois|trouve) (pas|rien)', 'je vois pas',
      '(je|j)? (ne|n)? (m|me)? (en)? (souviens|rappelle) (pas|plus)', 'pas (vraiment|trop|tellement|spécialement)',
      'comme (d habitude|avant|toujours|d hab|la dernière fois)', '(pareil|pareille|la même chose|idem) (qu avant|que d habitude|que la dernière fois)?',
      '(difficile|dur|compliqué) (à|de) dire', 'sans commentaire', 'aucun commentaire', 'pas de commentaire',
      'rien à redire', 'pas de (plainte|plaintes|souci|soucis|problème|problèmes)', 'aucun (souci|problème)',
      'pas d avis', 'sans avis', 'aucun avis', 'peu importe', 'n importe', 'n / a', 'na', 'nsp', 'non', 'nan', 'oui',
      'ouais', 'peut-être', 'peut être', '(ça|cela)? dépend', 'bof', 'moyen', 'couci-couça', 'couci couça',
      'comme ci comme ça', 'ni bien ni mal', 'ça va', 'ça passe', 'ça marche', 'ça fonctionne', 'pas mal', 'rien de fou',
      'ça pourrait être (mieux|pire)', 'je ne peux pas me plaindre', 'je peux pas me plaindre', 'tout va bien',
      'pas d idée', 'je passe', 'passe', 'rien à dire',
    ],
    verdicts: [
      'bien', 'bon', 'bonne', 'bons', 'bonnes', 'super', 'génial', 'géniale', 'top', 'cool', 'nickel', 'parfait',
      'parfaite', 'excellent', 'excellente', 'mauvais', 'mauvaise', 'nul', 'nulle', 'horrible', 'terrible',
      'affreux', 'ok', 'okay', 'correct', 'correcte', 'sympa', 'agréable', 'pratique', 'utile', 'facile', 'simple',
      'difficile', 'compliqué', 'intéressant', 'intéressante', 'aime', 'aimé', 'adore', 'adoré', 'déteste',
      'détesté', 'mieux', 'pire', 'meilleur', 'meilleure', 'satisfait', 'satisfaite', 'content', 'contente',
      'moyen', 'fonctionne', 'marche', 'efficace', 'chouette', 'impeccable', 'génial', 'formidable', 'extra',
      'satisfaisant', 'convenable', 'plaisant', 'pareil', 'passable', 'bravo',
    ],
    generic: [
      'application', 'appli', 'app', 'produit', 'outil', 'logiciel', 'service', 'plateforme', 'système', 'truc',
      'trucs', 'chose', 'choses', 'tout', 'rien', 'expérience', 'ensemble', 'site', 'partie', 'ça', 'cela',
      'globalement',
    ],
  },
  stem: stemFrench,
};
