import { GERMAN_LEXICON } from '../answer-parsing/de.js';
import type { ProbeCue, ProbeLanguage } from './language.js';
import type { WordToken } from './words.js';

const cue = (reason: ProbeCue['reason'], patterns: string[], weight = 2, extra: Partial<ProbeCue> = {}): ProbeCue[] =>
  patterns.map((pattern) => ({ pattern, reason, weight, ...extra }));

const CUES: ProbeCue[] = [
  ...cue('problem', ['nicht', 'nie', 'niemals', 'kein*', 'nichts', 'niemand', 'nirgends']),
  ...cue('problem', [
    'kaputt',
    'fehler*',
    'falsch',
    'problem*',
    'storung*',
    'abgesturzt',
    'absturz*',
    'sturzt|sturzte ab',
    'sturzt|sturzte _ ab',
    'sturzt|sturzte _ _ ab',
    'hangt',
    'schwierig',
    'kompliziert',
    'umstandlich',
    'abgelaufen',
    'quatsch',
    'ausgefallen',
    'verloren',
    'zu _',
    'nervig',
    'nur jedes',
  ]),
  ...cue('problem', ['jedes mal', 'nur', 'standig', 'immer', 'erst', 'dauert', 'dauerte', 'gebraucht', 'langsam', 'sobald'], 1),
  ...cue('event', ['aufgegeben', 'gab _ auf', 'aufgehort'], 3, { question: 'Was hat dich dazu gebracht aufzuhören?', personal: true }),
  ...cue('event', ['fast|beinahe gekundigt'], 3, { question: 'Was hat dich fast zum Kündigen gebracht?', personal: true }),
  ...cue('event', [
    'neulich',
    'letzte|letzten|letztes mal|woche|monat|jahr',
    'beim letzten mal',
    'plotzlich',
    'auf einmal',
    'passiert',
    'gekundigt',
    'storniert',
    'abgesagt',
    'abgebucht',
    'geendet',
    'mussten|musste',
    'gestrichen',
    'gesperrt',
    'ausgefallen',
    'als fax',
    'zweimal|dreimal abgebucht',
  ]),
  ...cue(
    'event',
    ['seit', 'dann', 'gesagt', 'umsteigen', 'kam', 'gab', 'im januar|februar|marz|april|mai|juni|juli|august|september|oktober|november|dezember'],
    1,
  ),
  ...cue('workaround', ['stattdessen', 'statt'], 2, { question: 'Warum machst du es stattdessen so?', personal: true }),
  ...cue('workaround', ['von|per hand', 'handisch', 'manuell', 'auf papier'], 3),
  ...cue('workaround', ['selbst', 'selber', 'ausdruck*', 'druck* _ aus', 'tipp*', 'abtipp*', 'whatsapp*', 'zettel', 'excel', 'einschreiben']),
  ...cue('workaround', ['einfach', 'deswegen', 'deshalb', 'also', 'eigentlich', 'schick*', 'schreib*', 'foto*', 'abfotograf*', 'dran', 'wenigstens', 'per'], 1),
  ...cue(
    'feeling',
    [
      'angst',
      'begeistert',
      'genervt',
      'nervt',
      'arger*',
      'wutend',
      'sauer',
      'frustr*',
      'enttauscht',
      'froh',
      'erleichtert',
      'glucklich',
      'traurig',
      'ertappt',
      'gestresst',
      'stress*',
      'unsicher',
      'uberfordert',
      'peinlich',
      'sorge*',
      'hasse',
      'liebe',
      'wut',
      'freu*',
      'panik',
      'schock*',
      'uberrascht',
      'verunsichert',
      'mulmig',
    ],
    3,
  ),
  // Verdicts: a judgement more than a feeling, asked about only when nothing stronger was said.
  ...cue('feeling', ['furchtbar', 'schrecklich', 'toll', 'klasse', 'super', 'schlimm', 'katastroph*']),
  ...cue('feeling', ['ehrlich', 'richtig', 'ganz', 'so', 'total', 'echt', 'fuhl*'], 1),
  ...cue('comparison', ['*er als', 'besser|mehr|weniger|anders als', 'im vergleich', 'verglichen', 'fruher', 'nur noch']),
  ...cue(
    'comparison',
    [
      'teurer',
      'billiger',
      'gunstiger',
      'schneller',
      'langsamer',
      'ubersichtlicher',
      'einfacher',
      'schlechter',
      'besser',
      'vorher',
      'jetzt',
      'bei der|dem',
      'klar',
      'aber',
    ],
    1,
  ),
  ...cue('number', ['halfte', 'doppelt', 'doppelte', 'dreimal|zweimal so', 'am ende']),
  ...cue(
    'number',
    ['knapp', 'ungefahr', 'etwa', 'rund', 'fast', 'um die', 'vielleicht', 'gerade mal', 'nur', 'bestimmt', 'mindestens', 'hochstens', 'uber'],
    1,
  ),
  // Breiterer Wortschatz je Grund (allgemeine Synonyme, keine Sätze aus einer gelabelten Antwort).
  ...cue('problem', [
    'unzuverlassig',
    'unmoglich',
    'katastrophe',
    'chaos',
    'nutzlos',
    'verschwunden',
    'verschwindet',
    'verzoger*',
    'zu spat',
    'doppelt abgebucht',
    'ausgesperrt',
    'hakt',
    'spinnt',
    'ewig',
    'klappt|klappte|funktioniert|funktionierte nicht',
    'geht|ging nicht',
    'muhsam',
    'lastig',
  ]),
  ...cue('problem', ['wieder', 'schon wieder', 'immer noch'], 1),
  ...cue('event', [
    'stellte sich heraus',
    'herausgefunden',
    'eines tages',
    'damals',
    'abgelehnt',
    'verweigert',
    'geloscht',
    'zuruckgeschickt',
    'beschwert',
    'angerufen',
    'gewechselt',
    'wurde|wurden _ gesperrt|gekundigt|geloscht|abgelehnt',
  ]),
  ...cue('event', ['erstattung', 'danach', 'schliesslich', 'irgendwann', 'wurde', 'wurden'], 1),
  ...cue('workaround', [
    'trick',
    'notlosung',
    'behelf*',
    'umweg',
    'meine eigene|eigenen|eigenes',
    'frage _ kollegen|kollegin',
    'liste',
    'screenshot*',
    'erinnerung',
    'wecker',
    'notiz*',
    'post-it*',
    'handschriftlich',
    'kalender',
  ]),
  ...cue('workaround', ['separat', 'extra', 'nebenher', 'mail', 'sms'], 1),
  ...cue(
    'feeling',
    [
      'beangstigend',
      'hoffnungsvoll',
      'dankbar',
      'gelangweilt',
      'mude',
      'erschopft',
      'beeindruckt',
      'skeptisch',
      'unwohl',
      'unangenehm',
      'zufrieden',
      'unzufrieden',
      'misstrau*',
      'verargert',
      'angenervt',
      'nervos',
      'erschrocken',
    ],
    3,
  ),
  ...cue('comparison', ['ahnlich wie', 'nicht so _ wie', 'im gegensatz', 'dagegen', 'der|die|das andere']),
  ...cue('number', ['mindestens', 'weniger|mehr als', 'ein drittel|viertel', 'prozent']),
];

const FIRST_PERSON = new Set(['ich', 'wir', 'ichs']);

const SUBORDINATORS = new Set([
  'dass',
  'weil',
  'wenn',
  'ob',
  'als',
  'seit',
  'seitdem',
  'bevor',
  'nachdem',
  'obwohl',
  'damit',
  'sobald',
  'bis',
  'wie',
  'was',
  'den',
  'die',
  'das',
  'der',
  'dem',
  'wo',
  'da',
  'falls',
  'sodass',
]);

/** First-person forms whose "du"-form is not the rule's (modal, auxiliary and strong verbs). */
const IRREGULAR: Record<string, string> = {
  bin: 'bist',
  hab: 'hast',
  habe: 'hast',
  hatte: 'hattest',
  war: 'warst',
  kann: 'kannst',
  konnte: 'konntest',
  will: 'willst',
  wollte: 'wolltest',
  muss: 'musst',
  musste: 'musstest',
  darf: 'darfst',
  durfte: 'durftest',
  soll: 'sollst',
  sollte: 'solltest',
  weiß: 'weißt',
  weiss: 'weißt',
  werde: 'wirst',
  wurde: 'wurdest',
  mag: 'magst',
  möchte: 'möchtest',
  tu: 'tust',
  tue: 'tust',
  fahre: 'fährst',
  sehe: 'siehst',
  spreche: 'sprichst',
  nehme: 'nimmst',
  gebe: 'gibst',
  lese: 'liest',
  esse: 'isst',
  helfe: 'hilfst',
  treffe: 'triffst',
  vergesse: 'vergisst',
  laufe: 'läufst',
  schlafe: 'schläfst',
  trage: 'trägst',
  halte: 'hältst',
  lasse: 'lässt',
  ging: 'gingst',
  kam: 'kamst',
  sah: 'sahst',
  gab: 'gabst',
  stand: 'standst',
  fand: 'fandest',
  schau: 'schaust',
  schaue: 'schaust',
  spar: 'sparst',
  spare: 'sparst',
  wohne: 'wohnst',
  bekomme: 'bekommst',
  krieg: 'kriegst',
};

/** A verb's "du"-form from its "ich"-form: the irregulars above, else the ending rules ("hänge" → "hängst", "arbeite" → "arbeitest", "tipp" → "tippst"). */
function secondPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular) return irregular;
  const stem = lower.endsWith('e') ? lower.slice(0, -1) : lower;
  if (/[td]$/.test(stem)) return `${stem}est`;
  if (/[sßzx]$/.test(stem)) return `${stem}t`;
  return `${stem}st`;
}

/** With an enclitic "es" ("hab's", "schreib's") the verb shifts and the pronoun is written out. */
function shiftVerb(word: WordToken): string {
  const clitic = /^(.+)['’]s$/.exec(word.text);
  return clitic ? `${secondPerson(clitic[1]!)} es` : secondPerson(word.text);
}

const PLURAL_IRREGULAR: Record<string, string> = {
  sind: 'seid',
  haben: 'habt',
  waren: 'wart',
  hatten: 'hattet',
  konnen: 'könnt',
  mussen: 'müsst',
  durfen: 'dürft',
  werden: 'werdet',
  wollen: 'wollt',
  sollen: 'sollt',
  tun: 'tut',
  wissen: 'wisst',
};

/** "wir"-form → "ihr"-form: "schreiben" → "schreibt", "mussten" → "musstet", "sind" → "seid". */
function pluralSecondPerson(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular = PLURAL_IRREGULAR[lower.normalize('NFKD').replace(/\p{M}+/gu, '')];
  if (irregular) return irregular;
  if (/[td]en$/.test(lower)) return `${lower.slice(0, -2)}et`;
  if (/(el|er)n$/.test(lower)) return `${lower.slice(0, -1)}t`;
  if (lower.endsWith('en')) return `${lower.slice(0, -2)}t`;
  return lower;
}

const PRONOUNS: Record<string, string> = {
  ich: 'du',
  mich: 'dich',
  mir: 'dir',
  mein: 'dein',
  meine: 'deine',
  meinen: 'deinen',
  meinem: 'deinem',
  meiner: 'deiner',
  meines: 'deines',
  wir: 'ihr',
  uns: 'euch',
  unser: 'euer',
  unsere: 'eure',
  unseren: 'euren',
  unserem: 'eurem',
  unserer: 'eurer',
};

/** Words after "und" that are not a second verb of the same subject. */
const NOT_VERBS = new Set([
  'dann',
  'auch',
  'so',
  'da',
  'jetzt',
  'noch',
  'nur',
  'zwar',
  'zwar',
  'schon',
  'gar',
  'nie',
  'nicht',
  'mit',
  'in',
  'im',
  'am',
  'auf',
  'zu',
  'ein',
  'eine',
  'einen',
]);

/**
 * German persons in a main clause: the finite verb next to "ich" (after it, or before it when
 * something is fronted) takes the "du"-form, as does a second verb after "und" that shares the
 * subject ("stehe ich da und wedel rum" → "stehst du da und wedelst rum"); "mein" → "dein".
 * "ich" in a subordinate clause, whose verb is at the end, is left to a quote. "Wir" becomes
 * "ihr" only where the verb needs no change (past forms and modals are the same: not shifted).
 */
function shift(words: readonly WordToken[]): (string | undefined)[] | null {
  const out: (string | undefined)[] = words.map((word) => PRONOUNS[word.norm]);
  for (let index = 0; index < words.length; index += 1) {
    const norm = words[index]!.norm;
    if (norm === 'wir') {
      const verbAt = index === 0 ? 1 : index - 1;
      const verb = words[verbAt];
      if (!verb || (index > 0 && (SUBORDINATORS.has(verb.norm) || index > 3))) return null;
      out[verbAt] = pluralSecondPerson(verb.text);
      continue;
    }
    if (norm !== 'ich' && norm !== 'ichs') continue;
    if (norm === 'ichs') out[index] = 'du es';
    let verbAt: number;
    if (index === 0) verbAt = 1;
    else {
      if (SUBORDINATORS.has(words[index - 1]!.norm) || index > 3) return null;
      verbAt = index - 1;
    }
    const verb = words[verbAt];
    if (!verb || (/^\p{Lu}/u.test(verb.text) && verbAt !== 0)) return null;
    out[verbAt] = shiftVerb(verb);
    if (verbAt === 0 && /^\p{Lu}/u.test(verb.text)) out[verbAt] = out[verbAt]!.charAt(0).toUpperCase() + out[verbAt]!.slice(1);
    for (let next = index + 1; next < words.length - 1; next += 1) {
      if (words[next]!.norm !== 'und') continue;
      const follower = words[next + 1]!;
      if (/^\p{Ll}/u.test(follower.text) && !NOT_VERBS.has(follower.norm) && !PRONOUNS[follower.norm] && !SUBORDINATORS.has(follower.norm))
        out[next + 1] = shiftVerb(follower);
      break;
    }
  }
  return out;
}

const LOWERCASE_FIRST = new Set([
  'ich',
  'wir',
  'du',
  'sie',
  'er',
  'es',
  'man',
  'die',
  'der',
  'das',
  'den',
  'dem',
  'ein',
  'eine',
  'einen',
  'mein',
  'meine',
  'meinen',
  'unser',
  'unsere',
  'dann',
  'also',
  'aber',
  'eigentlich',
  'fruher',
  'jetzt',
  'nur',
  'so',
  'um',
  'am',
  'im',
  'beim',
  'mit',
  'uber',
  'fur',
  'seit',
  'sobald',
  'weil',
  'gar',
  'ganz',
  'richtig',
  'ehrlich',
  'knapp',
  'ungefahr',
  'fast',
  'furchtbar',
  'hat',
  'haben',
  'ist',
  'sind',
  'war',
  'zuruckgemeldet',
  'angeboten',
  'jedes',
  'kein',
  'keine',
  'nichts',
  'niemand',
]);

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const GERMAN_PROBES: ProbeLanguage = {
  code: 'de',
  splitElision: false,
  cues: CUES,
  clauseOpeners: ['aber', 'weil', 'denn', 'deswegen', 'deshalb', 'also', 'sobald', 'bis', 'obwohl', 'wahrend', 'sondern'],
  coordinators: ['und', 'oder'],
  subjectStarters: [
    'ich',
    'wir',
    'du',
    'sie',
    'er',
    'es',
    'man',
    'die',
    'der',
    'das',
    'ein',
    'eine',
    'mein',
    'meine',
    'unser',
    'unsere',
    'jeder',
    'niemand',
    'keiner',
    'alle',
    'dies',
    'diese',
    'dieser',
    'ichs',
    "gibt's",
    'jemand',
  ],
  frontedAdverbs: [
    'dann',
    'also',
    'jetzt',
    'fruher',
    'eigentlich',
    'neulich',
    'damals',
    'heute',
    'manchmal',
    'meistens',
    'oft',
    'beim',
    'im',
    'am',
    'bei',
    'seitdem',
  ],
  edgeFillers: [
    'aeh',
    'ah',
    'ahm',
    'hm',
    'puh',
    'na',
    'ja',
    'nee',
    'nein',
    'naja',
    'also',
    'und',
    'aber',
    'ehrlich gesagt',
    'ehrlich',
    'sag ich mal',
    'halt',
    'eben',
    'klar',
    'so',
  ],
  numberWords: new Set(
    [
      ...Object.keys(GERMAN_LEXICON.numbers.units),
      ...Object.keys(GERMAN_LEXICON.numbers.tens),
      ...Object.keys(GERMAN_LEXICON.numbers.counts),
      'hundert',
      'tausend',
      'fünftausend',
      'zwölf',
      'dutzend',
    ]
      .map((word) =>
        word
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
      )
      .filter((word) => !['ein', 'eine', 'eins', 'einer', 'einen', 'einem', 'einmal'].includes(word)),
  ),
  quantityQuestions: ['wie viel*|viele|lange|oft|teuer|hoch', 'wieviel*'],
  finished: ['passt so', 'alles gesagt', 'nichts mehr|weiter', 'das wars', 'das war alles|es', 'sonst nichts'],
  presupposesDifficulty: [
    'schwierig*',
    'schwer*',
    'problem*',
    'schief',
    'falsch gelaufen',
    'frustr*',
    'arger*',
    'gestort',
    'hurde*',
    'herausforder*',
    'schlimmste*',
    'nervt*',
  ],
  firstPerson: FIRST_PERSON,
  shift,
  lowercaseFirst: (word) => LOWERCASE_FIRST.has(word.norm),
  reported: (clause) => `${capitalize(clause)}, sagst du.`,
  quoted: (span) => `Du hast „${span}“ gesagt.`,
  questions: {
    problem: ['Was machst du, wenn das passiert?', 'Was bedeutet das für dich?'],
    event: ['Wie ging es dann weiter?', 'Wie kam es dazu?'],
    workaround: ['Wie bist du darauf gekommen, es so zu machen?', 'Was kostet es dich, es so zu machen?'],
    feeling: ['Was genau löst dieses Gefühl bei dir aus?', 'Woher kommt dieses Gefühl?'],
    comparison: ['Worin liegt für dich der Unterschied?', 'Woran merkst du diesen Unterschied im Alltag?'],
    number: ['Was steckt hinter dieser Zahl?', 'Wie kommst du auf diese Zahl?'],
  },
  thirdPartyQuestions: {
    workaround: ['Wie hat sich das so eingespielt?', 'Was kostet es, es so zu machen?'],
    feeling: ['Woher kommt dieses Gefühl?', 'Was steckt hinter diesem Gefühl?'],
  },
};
