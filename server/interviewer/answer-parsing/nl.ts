import type { AnswerLexicon } from './lexicon.js';

const SUBJECTS = '(ik|we|wij|ze|zij|hij|jij|je|u|het|dat|dit|die|men)';
/** Verbs Dutch short answers are built on ("heb ik", "ik wel", "dat deed ik"). */
const AUXILIARIES =
  '(ben|bent|is|was|waren|zijn|heb|hebt|heeft|hebben|had|hadden|doe|doet|doen|deed|deden|wil|wilde|kan|kon|kun|kunt|' +
  'zal|zou|zouden|ga|gaat|ging|mag|mocht|moet|moest|vind|vond|gebruik|gebruikt|gebruikte)';
/** Copulas: "het was niet" is negative only as a short answer ("het was niet slecht" is not a no). */
const COPULAS = '(ben|bent|is|was|waren|zijn|word|wordt|werd)';
/** Other verbs: "ik heb het niet gebruikt", "heb ik nooit gedaan" answer no whatever follows. */
const CLAUSE_VERBS =
  '(heb|hebt|heeft|hebben|had|hadden|doe|doet|doen|deed|deden|wil|wilde|kan|kon|kun|kunt|zal|zou|zouden|ga|gaat|' +
  'ging|mag|mocht|moet|moest|gebruik|gebruikte|denk|dacht|geloof)';
const OBJECTS = '(het|dat|er|die|ze|hem|dit)';

const UNIT_WORDS = ['een', 'twee', 'drie', 'vier', 'vijf', 'zes', 'zeven', 'acht', 'negen'];
const TENS: Record<string, number> = {
  twintig: 20, dertig: 30, veertig: 40, vijftig: 50, zestig: 60, zeventig: 70, tachtig: 80, negentig: 90,
};

/**
 * Dutch writes 21–99 as one word, unit first: "eenentwintig", "tweeëntwintig" (folded to
 * "tweeentwintig"), "vijfenzeventig". They are listed as single-word cardinals.
 */
function compoundNumbers(): Record<string, number> {
  const compounds: Record<string, number> = {};
  for (const [tens, tensValue] of Object.entries(TENS)) {
    UNIT_WORDS.forEach((unit, index) => {
      compounds[`${unit}en${tens}`] = tensValue + index + 1;
    });
  }
  return compounds;
}

/**
 * Light Dutch stemmer: enough for "prijzen"/"prijs", "telefoons"/"telefoon", "chatten"/"chat",
 * "kaartje"/"kaart", "jaren"/"jaar", no more. Vowels doubled in the last syllable are undoubled
 * so the open-syllable plural ("jaren") meets its singular ("jaar").
 */
function stemDutch(word: string): string {
  let stem = word;
  // diminutives: "lampje", "kaartje", "bloemetje"
  if (stem.length > 6 && stem.endsWith('etje')) stem = stem.slice(0, -4);
  else if (stem.length > 5 && /[^aeiou]tje$/.test(stem)) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('tje')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('pje')) stem = stem.slice(0, -2);
  else if (stem.length > 4 && stem.endsWith('je')) stem = stem.slice(0, -2);
  // plurals and verb endings: "-s" after a sonorant or -e ("telefoons", "tafels"), "-en" ("prijzen", "chatten")
  else if (stem.length > 4 && /[lmnr]s$|es$/.test(stem) && !stem.endsWith('ss')) stem = stem.slice(0, -1);
  else if (stem.length > 4 && stem.endsWith('en')) stem = stem.slice(0, -2);
  else if (stem.length > 3 && stem.endsWith('e') && !stem.endsWith('ee') && !stem.endsWith('ie')) stem = stem.slice(0, -1);
  if (stem.endsWith('z')) stem = `${stem.slice(0, -1)}s`;
  else if (stem.endsWith('v')) stem = `${stem.slice(0, -1)}f`;
  if (/([bdfgklmnprst])\1$/.test(stem)) stem = stem.slice(0, -1);
  return stem.replace(/([aeou])\1([^aeiou]+)$/, '$1$2');
}

/** Dutch. */
export const DUTCH_LEXICON: AnswerLexicon = {
  // "zo'n", "z'n", "'s avonds", "auto's": the apostrophe separates words and endings.
  apostrophes: 'split',
  numbers: {
    units: {
      // "een" is not here: it is first of all the article ("een vier"), and "één" folds to it.
      nul: 0, eentje: 1, twee: 2, drie: 3, vier: 4, vijf: 5, zes: 6, zeven: 7, acht: 8, negen: 9, tien: 10,
      elf: 11, twaalf: 12, dertien: 13, veertien: 14, vijftien: 15, zestien: 16, zeventien: 17, achttien: 18,
      negentien: 19,
      // school-grade diminutives: "een zesje", "een dikke acht(je)"
      tweetje: 2, drietje: 3, viertje: 4, vijfje: 5, zesje: 6, achtje: 8, negentje: 9, tientje: 10,
      ...compoundNumbers(),
    },
    tens: TENS,
    hundred: ['honderd'],
    // "drie en een half", "zeven komma vijf", and grade marks "een zes min", "zeven plus"
    fractionPhrases: ['en een (half|halve|kwart)', 'en (drie)? kwart', 'komma', 'punt', 'min', 'plus'],
    pronounNumbers: ['eentje'],
    pronounDeterminers: ['de', 'het', 'deze', 'die', 'dat', 'elke', 'ieder', 'iedere', 'geen', 'welke', 'nog', 'er', 'andere'],
    ordinals: {
      eerste: 1, tweede: 2, derde: 3, vierde: 4, vijfde: 5, zesde: 6, zevende: 7, achtste: 8, negende: 9,
      tiende: 10, elfde: 11, twaalfde: 12, dertiende: 13, veertiende: 14, vijftiende: 15, zestiende: 16,
      zeventiende: 17, achttiende: 18, negentiende: 19, twintigste: 20,
    },
    lastWords: ['laatste', 'laatst'],
    counts: { eenmaal: 1, tweemaal: 2, driemaal: 3, viermaal: 4, vijfmaal: 5 },
  },
  articles: ['een', "'n"],
  outOf: [],
  // "acht op tien", "vier uit vijf", "vier van de vijf", "een 4 op de 5"
  outOfAfterNumber: ['op (de)?', 'uit', 'van (de)?'],
  ratingUnits: ['ster', 'sterren', 'sterretjes', 'punt', 'punten', 'pt', 'ptn'],
  percentWords: ['%', 'procent', 'pct'],
  bounds: {
    above: ['(meer|hoger|groter|beter|ouder|boven) dan', 'boven (de)?', 'ruim', 'meer dan'],
    below: ['(minder|lager|kleiner|slechter|jonger|onder) dan', 'onder (de)?', 'beneden (de)?', 'nog geen'],
    atLeast: ['minstens', 'minimaal', 'ten minste', 'tenminste', "op (zijn|z'n) minst", 'niet minder dan', 'minimum'],
    atMost: [
      'hooguit', 'hoogstens', 'maximaal', 'max', 'maximum', 'ten hoogste', "op (zijn|z'n) hoogst", 'niet meer dan',
      'tot (aan|maximaal)',
    ],
    orMore: ['+', '(of|en) (meer|ouder|hoger|daarboven|beter|plus)', 'minstens', 'minimaal', "op (zijn|z'n) minst"],
    orLess: ['(of|en) (minder|jonger|lager|daaronder|slechter)', 'hooguit', 'hoogstens', 'max', 'maximaal', "op (zijn|z'n) hoogst"],
  },
  rangeJoiners: ['-', 'tot (en met)?', 'a'],
  rangeOpeners: ['tussen', 'van'],
  rangeAnd: ['en', 'tot'],
  correctionPhrases: [
    'nee wacht', 'wacht', 'ik bedoel', 'of eigenlijk', 'eigenlijk', 'of nee', 'nee sorry', 'sorry', 'nee', 'neen',
    'correctie', 'laat maar', 'beter gezegd', 'of liever',
  ],
  negators: ['niet', 'geen', 'nooit', 'niks', 'niets', 'noch', 'nergens', 'allerminst'],
  negationTransparent: [
    'een', 'n', 'de', 'het', 'zelfs', 'echt', 'eens', 'helemaal', 'precies', 'zo', 'te', 'heel', 'erg', 'zeer',
    'per', 'se', 'perse', 'altijd', 'bepaald', 'noodzakelijk', 'direct', 'meteen', 'zou', 'ik', 'je', 'geven', 'geef',
    'kiezen', 'kies', 'nemen', 'neem', 'willen', 'wil', 'gebruiken', 'via', 'met', 'door', 'over', 'op', 'bij',
    'voor', 'graag', 'liefst',
  ],
  exclusions: [
    '(alles|van alles)? behalve', 'in plaats van', 'ipv', 'liever (geen|niet)', 'uitgezonderd',
    'met uitzondering van', 'anders dan', '(een)? hekel aan', '(haat|haatte|vermijd)', 'nooit via',
  ],
  stopwords: [
    // articles, pronouns ("zo'n", "z'n", "'t", "'s" split into "zo n", "z n", "t", "s")
    'de', 'het', 'een', 'n', 't', 's', 'z', 'ik', 'me', 'mij', 'mijn', 'm', 'we', 'wij', 'ons', 'onze', 'je', 'jij',
    'jou', 'jouw', 'u', 'uw', 'hij', 'hem', 'zijn', 'ze', 'zij', 'haar', 'hun', 'hen', 'jullie', 'dit', 'dat',
    'deze', 'die', 'wie', 'wat', 'welke', 'welk', 'er', 'daar', 'hier', 'waar', 'zich', 'zelf', 'elkaar', 'men',
    'iemand', 'niemand',
    // auxiliaries
    'ben', 'bent', 'is', 'was', 'waren', 'geweest', 'heb', 'hebt', 'heeft', 'hebben', 'had', 'hadden', 'word',
    'wordt', 'worden', 'werd', 'werden', 'kan', 'kun', 'kunt', 'kunnen', 'kon', 'konden', 'zal', 'zult', 'zullen',
    'zou', 'zouden', 'moet', 'moeten', 'moest', 'mag', 'mogen', 'mocht', 'wil', 'wilt', 'willen', 'wilde', 'doe',
    'doet', 'doen', 'deed', 'ga', 'gaat', 'gaan', 'ging',
    // prepositions, pronominal adverbs and conjunctions
    'van', 'in', 'op', 'aan', 'met', 'voor', 'naar', 'bij', 'uit', 'om', 'over', 'tot', 'door', 'onder', 'boven',
    'tussen', 'tegen', 'na', 'zonder', 'sinds', 'vanaf', 'per', 'via', 'rond', 'binnen', 'buiten', 'achter',
    'naast', 'langs', 'tijdens', 'af', 'mee', 'toe', 'heen', 'erin', 'erop', 'eraan', 'ermee', 'ervan', 'erover',
    'eruit', 'daarvan', 'daarmee', 'daarin', 'daarop', 'daarover', 'hiervan', 'hiermee', 'en', 'of', 'maar',
    'want', 'dus', 'omdat', 'als', 'dan', 'toen', 'terwijl', 'hoewel', 'zodat', 'tenzij', 'wanneer', 'indien',
    // determiners, quantifiers, negators and grammatical adverbs
    'alle', 'al', 'allebei', 'beide', 'elk', 'elke', 'ieder', 'iedere', 'geen', 'sommige', 'enkele', 'veel',
    'weinig', 'meer', 'meest', 'meeste', 'minder', 'minst', 'minste', 'ander', 'andere', 'zulke', 'ook', 'nog',
    'alleen', 'zelfs', 'weer', 'hoe', 'waarom', 'niet', 'nooit', 'te', 'heel', 'erg', 'zeer', 'wel', 'toch', 'pas',
    'net', 'steeds', 'ooit', 'niks', 'niets', 'noch',
  ],
  discourseWords: [
    'ja', 'jaa', 'jawel', 'jazeker', 'jep', 'jup', 'nee', 'neen', 'neuh', 'nope', 'ok', 'oke', 'okay', 'goh',
    'nou', 'tja', 'ach', 'eh', 'ehm', 'uh', 'uhm', 'um', 'hm', 'hmm', 'mm', 'mwah', 'o', 'oh', 'ah', 'misschien',
    'wellicht', 'waarschijnlijk', 'mogelijk', 'zeker', 'absoluut', 'natuurlijk', 'tuurlijk', 'uiteraard',
    'beslist', 'echt', 'eigenlijk', 'gewoon', 'eerlijk', 'gezegd', 'sowieso', 'vooral', 'meestal', 'soms', 'vaak',
    'best', 'vrij', 'redelijk', 'nogal', 'behoorlijk', 'ongeveer', 'circa', 'ca', 'zo', 'zowat', 'bijna', 'haast',
    'krap', 'dik', 'dikke', 'ruim', 'denk', 'dacht', 'geloof', 'gok', 'zeg', 'zeggen', 'geef', 'geven', 'gaf',
    'gegeven', 'geeft', 'cijfer', 'score', 'scoor', 'beoordeel', 'noem', 'kies', 'kiezen', 'neem', 'vind', 'vond',
    'vinden', 'voel', 'hoor', 'joh', 'he', 'sterren', 'ster', 'punten', 'wacht', 'sorry', 'verder', 'trouwens',
    'overigens', 'persoonlijk', 'momenteel', 'nu', 'vandaag', 'lol', 'haha', 'bedankt', 'dank', 'alsjeblieft', 'aub',
    'ergens', 'zoiets', 'eerder', 'liever', 'liefst', 'graag', 'hooguit', 'max', 'minstens', 'inderdaad', 'klopt',
    'even', 'volgens', 'mijns', 'inziens', 'helemaal', 'precies', 'totaal', 'ongeveer',
    // ordinal suffixes after digits: "de 2e", "de 3de", "de 1ste"
    'e', 'ste',
  ],
  referenceWords: ['optie', 'nummer', 'nr', 'keuze', 'antwoord', 'letter', 'item', 'mogelijkheid', 'alternatief'],
  ordinalNouns: ['optie', 'opties', 'keuze', 'antwoord', 'mogelijkheid', 'item', 'alternatief', 'eentje'],
  meaningShifters: [
    'niet', 'geen', 'nooit', 'non', 'minder', 'meer', 'dan', 'onder', 'boven', 'zonder', 'behalve', 'minst',
    'meest', 'noch', 'alleen', 'enkel', 'hooguit', 'minstens', 'on',
  ],
  intensifiers: [
    'zeer', 'heel', 'erg', 'echt', 'enorm', 'ontzettend', 'super', 'hartstikke', 'extreem', 'uiterst', 'totaal',
    'helemaal', 'volledig', 'absoluut', 'best', 'vrij', 'redelijk', 'behoorlijk', 'nogal', 'enigszins', 'iets',
    'ietwat', 'tamelijk', 'lichtelijk', 'zo', 'te', 'meest', 'minst', 'hoogst', 'bijzonder', 'beetje',
  ],
  downtoners: [
    'best', 'vrij', 'redelijk', 'behoorlijk', 'nogal', 'enigszins', '(een)? beetje', 'wat', 'ietwat', 'tamelijk',
    'min of meer', 'zo goed als', 'bijna', 'haast', 'niet helemaal', 'vrijwel', 'grotendeels', 'matig',
  ],
  polarity: {
    yes: [
      'ja', 'jaa', 'jaaa', 'jah', 'jawel', 'jazeker', 'jaja', 'jep', 'jup', 'jip', 'yes', 'yep', 'yup', 'zeker',
      'zeker weten', 'zekers', 'zeer zeker', 'absoluut', 'natuurlijk', 'tuurlijk', 'uiteraard', 'vanzelfsprekend',
      'beslist', '(dat|het)? klopt', 'inderdaad', 'correct', 'juist', 'precies', 'zonder (enige)? twijfel',
      'ongetwijfeld', 'zeker wel', '(dat|het) is (waar|juist|correct|zo)', 'zo is het', 'mhm', 'mm hmm', 'uh huh',
      'hmhm', 'akkoord', '(ik)? (denk|geloof|gok|vermoed|hoop) (het|van)? wel', '(ik)? denk het',
      'dat (denk|geloof) ik (wel)?', 'volgens mij wel', 'waarom niet', 'reken maar',
    ],
    no: [
      'nee', 'neen', 'neu', 'neuh', 'nee hoor', 'nee joh', 'nah', 'nope', 'nooit', 'nog nooit', 'nog niet',
      'niet meer', 'niet echt', 'niet bepaald', 'niet per se', 'niet perse', 'niet helemaal', 'niet zozeer',
      'niet zo (erg)?', 'niet bijzonder', 'niet speciaal', 'niet eens',
      'niet dat ik (weet|me kan herinneren|me herinner|gemerkt heb|heb gemerkt|zie)', 'voor zover ik weet niet',
      'niet voor zover ik weet', 'geen sprake van', 'echt niet',
      '(zeker|absoluut|natuurlijk|tuurlijk|uiteraard|beslist|helemaal|totaal|zeker weten|echt helemaal) niet',
      '(dat|het)? klopt (helemaal)? niet', '(dat|het) is niet (waar|juist|correct|zo)', 'niet waar', 'onwaar',
      'onjuist', 'incorrect', 'fout', 'niks', 'niets', 'helemaal (niks|niets)', 'geen enkele keer', 'nergens',
      '(ik)? (denk|geloof|vermoed) (het|van)? niet', 'dat (denk|geloof) ik niet', 'volgens mij niet', 'liever niet',
      'helaas niet', 'nauwelijks', 'amper', 'bijna nooit', 'geenszins', 'allerminst', 'negatief',
    ],
    unsure: [
      'misschien', 'wellicht', 'mogelijk', 'eventueel', 'onzeker', '(ik)? twijfel', 'twijfelachtig',
      '(het|dat)? hangt (er)? (van|ervan) af', '(het|dat)? ligt eraan', '(het|dat)? ligt er aan', 'afhankelijk',
      '(ik)? (weet|wist) (het|dat)? (echt|eigenlijk)? (niet|nog niet) (zeker|precies|meer)?',
      '(dat|dit|het)? weet ik (echt|eigenlijk)? (het)? (niet|nog niet) (zeker|precies|meer)?', 'weet niet',
      'weet ik veel', 'geen (idee|flauw idee|flauw benul|benul)',
      '(ik ben)? (het|er)? niet (zo|helemaal|echt|100 %|honderd procent)? zeker (van)?',
      '(ik)? (kan|kon) (het|dat)? niet (goed)? (zeggen|inschatten)',
      '(ik)? (kan|kon) me (dat|het)? niet (meer)? herinneren', 'kan ik me niet (meer)? herinneren',
      '(moeilijk|lastig) te zeggen', 'wie zal het zeggen', 'wie weet', '(vijftig|50) (vijftig|50)',
      '50 / 50', '50 - 50', 'half om half', 'dunno', 'idk', 'zou kunnen', 'kan zijn',
    ],
    noParticles: ['geen'],
    particleFollowers: ['hoor', 'joh', 'helaas', 'sorry', 'maar', 'en', 'want', 'dus', 'nee', 'eigenlijk', 'echt', 'ik'],
    clauseFinalNegators: ['niet', 'nooit', 'niks', 'niets'],
    shortYes: [
      `${SUBJECTS} ${AUXILIARIES}? (het|dat|er)? (ook)? wel`,
      `${AUXILIARIES} ${SUBJECTS} ${OBJECTS}? (wel|zeker|ook)?`,
      `${SUBJECTS} ${AUXILIARIES} ${OBJECTS}? (ook)?`,
      `(dat|het|die) ${AUXILIARIES} ${SUBJECTS} (wel|ook)?`,
    ],
    shortNo: [
      `${SUBJECTS}? ${COPULAS} ${OBJECTS}? (nog)? (niet|nooit)`,
      `${COPULAS} ${SUBJECTS} ${OBJECTS}? (nog)? (niet|nooit)`,
      `(dat|het|die) ${COPULAS} ${SUBJECTS} (nog)? (niet|nooit)`,
    ],
    clauseNo: [
      `${SUBJECTS} ${CLAUSE_VERBS} ${OBJECTS}? (nog)? (niet|nooit|geen)`,
      `${CLAUSE_VERBS} ${SUBJECTS} ${OBJECTS}? (nog)? (niet|nooit|geen)`,
      `(dat|het|die) ${CLAUSE_VERBS} ${SUBJECTS} (nog)? (niet|nooit|geen)`,
    ],
    answerTail: [
      'ja', 'jawel', 'hoor', 'joh', 'wel', 'zeker', 'echt', 'eigenlijk', 'ook', 'al', 'nog', 'eens', 'weleens',
      'vaak', 'altijd', 'regelmatig', 'dagelijks', 'wekelijks', 'elke', 'iedere', 'dag', 'week', 'keer', 'keren',
      'een', 'paar', 'meerdere', 'vorige', 'gisteren', 'vandaag', 'net', 'gewoon', 'inderdaad', 'natuurlijk',
      'absoluut', 'maar', 'en', 'dus', 'trouwens', 'toch', 'zelfs', 'ooit', 'helaas', 'soms',
      // Dutch puts the participle last: "heb ik gedaan", "ik heb het wel geprobeerd"
      'gedaan', 'gehad', 'gebruikt', 'geprobeerd', 'gezien', 'gemerkt', 'gelezen', 'gekregen', 'geweest',
      'gevonden', 'gemaakt', 'meegemaakt', 'gehoord', 'ervaren', 'nodig',
    ],
  },
  open: {
    fillers: [
      'eh', 'ehm', 'euh', 'uh', 'uhm', 'um', 'hm', 'hmm', 'mm', 'ah', 'oh', 'o', 'nou', 'tja', 'goh', 'ach',
      'zeg maar', 'weet je', 'eigenlijk', 'gewoon', 'echt', 'eerlijk gezegd', 'om eerlijk te zijn', 'ik bedoel',
      'ik denk', 'denk ik', 'ik vind', 'vind ik', 'ik zou zeggen', 'laat me (even)? denken', 'even denken',
      'eens kijken', 'over het algemeen', 'in het algemeen', 'al met al', 'sowieso', 'nou ja', 'alsjeblieft',
      'graag', 'dus', 'wel', 'toch', 'hoor',
    ],
    nonCommittal: [
      '(ik)? (weet|wist) (het)? (echt)? niet', '(dat)? weet ik (het)? (echt)? niet', 'weet niet', 'geen (flauw)? idee',
      '(ik ben)? (het)? niet (zo|echt|helemaal)? zeker', 'niks', 'niets',
      '(niks|niets) (eigenlijk|echt|bijzonders|speciaals|bijzonder|specifieks|anders|meer|te melden|op te merken)',
      'verder (niks|niets)', '(er)? (schiet|komt) me (niks|niets) te binnen', '(ik)? (kan|kon) (niks|niets) bedenken',
      '(ik)? (kan|kon) me (het|dat)? niet (meer)? herinneren', 'niet (echt|veel|zoveel|bijzonder)',
      'niet veel te (zeggen|melden)', '(hetzelfde|zelfde) als (vorige keer|altijd|eerst|voorheen|anders|daarvoor)',
      '(ongeveer|eigenlijk)? hetzelfde', '(moeilijk|lastig) te zeggen',
      'geen (commentaar|mening|opmerkingen|opmerking|klachten|klacht|problemen|bijzonderheden)',
      'maakt (me)? niet uit', 'boeit niet', 'nvt', 'nee', 'ja', 'jawel', 'misschien', 'wellicht',
      '(het)? hangt ervan af', 'ligt eraan', 'zo zo', 'soso', 'gaat wel', 'het gaat', 'kan (beter|slechter|erger)',
      'kon (beter|slechter|erger)', 'niet slecht', 'mwah', 'mwa', 'meh', 'alles (goed|prima|ok|oke)', 'geen',
      'geen enkel probleem',
    ],
    verdicts: [
      'goed', 'prima', 'ok', 'oke', 'okay', 'fijn', 'leuk', 'mooi', 'top', 'super', 'geweldig', 'gaaf', 'tof', 'vet',
      'uitstekend', 'perfect', 'prachtig', 'slecht', 'matig', 'waardeloos', 'vreselijk', 'verschrikkelijk', 'beter',
      'slechter', 'beste', 'slechtste', 'hetzelfde', 'zelfde', 'tevreden', 'blij', 'makkelijk', 'gemakkelijk',
      'simpel', 'eenvoudig', 'moeilijk', 'lastig', 'handig', 'nuttig', 'interessant', 'werkt', 'werkte', 'werken',
      'aardig', 'redelijk', 'voldoende', 'onvoldoende', 'fantastisch', 'heerlijk', 'bevalt', 'beviel', 'lekker',
    ],
    generic: [
      'app', 'applicatie', 'product', 'tool', 'software', 'dienst', 'service', 'platform', 'systeem', 'programma',
      'ding', 'dingen', 'dingetjes', 'zaken', 'spul', 'alles', 'iets', 'ervaring', 'geheel', 'heleboel', 'beetje',
      'deel', 'stuk', 'allemaal',
    ],
  },
  stem: stemDutch,
};
