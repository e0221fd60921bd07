import { DUTCH_LEXICON } from '../answer-parsing/nl.js';
import type { ProbeCue, ProbeLanguage } from './language.js';
import type { WordToken } from './words.js';

const cue = (reason: ProbeCue['reason'], patterns: string[], weight = 2, extra: Partial<ProbeCue> = {}): ProbeCue[] =>
  patterns.map((pattern) => ({ pattern, reason, weight, ...extra }));

const CUES: ProbeCue[] = [
  ...cue('problem', ['niet', 'nooit', 'geen', 'niks', 'niets', 'niemand', 'nergens']),
  ...cue('problem', [
    'kapot', 'fout*', 'verkeerd', 'probleem*', 'storing*', 'vastlop*', 'loopt|liep vast', 'loopt|liep _ vast', 'crasht', 'crashte', 'crash*', 'lastig', 'moeilijk',
    'ingewikkeld', 'pas na', 'duurt|duurde lang', 'moet|moeten ik|we|je', 'hapert', 'traag', 'onhandig', 'onduidelijk', 'te hoog|duur|laag|traag|lang|weinig|veel|klein|ingewikkeld',
  ]),
  ...cue('problem', ['alleen', 'alsnog', 'altijd', 'elke', 'telkens', 'steeds', 'elke|iedere keer'], 1),
  ...cue('event', ['opgegeven', 'gaf|geef _ op', 'gestopt', 'stopte'], 3, { question: 'Waardoor ben je gestopt?', personal: true }),
  ...cue('event', ['bijna opgezegd|gestopt'], 3, { question: 'Waarom wilde je opzeggen?', personal: true }),
  ...cue('event', [
    'vorige|afgelopen week|maand|keer|jaar|zomer', 'laatst', 'gisteren', 'ineens', 'opeens', 'plotseling', 'gebeurde',
    'geannuleerd', 'stopgezet', 'opgezegd', 'afgeleverd', 'kwijt', 'kwijtgeraakt', 'verloren', 'werd|werden ge*',
    'moesten|moest', 'op het laatste moment', 'bleven|bleef _ maar', 'zonder te|iets melden|zeggen|laten weten',
    'gebeld', 'geblokkeerd',
  ]),
  ...cue('event', ['kreeg', 'kregen', 'kwam', 'toen', 'werd', 'werden'], 1),
  ...cue('workaround', ['in plaats daarvan|van'], 2, { question: 'Waarom doe je het zo in plaats daarvan?' }),
  ...cue('workaround', ['met de hand', 'handmatig', 'op papier'], 3),
  ...cue('workaround', ['print*', 'uitprint*', 'uit en weer aan', 'zelf', 'omweg', 'excel', 'spreadsheet', 'schrift*']),
  ...cue('workaround', ['gewoon', 'eigenlijk', 'mail', 'groepsapp', 'whatsapp', 'bel', 'belt', 'zet', 'zetten', 'schrijf*', 'noteer*', 'markeer*', 'via'], 1),
  ...cue('feeling', [
    'boos', 'kwaad', 'zenuwachtig', 'bang', 'blij', 'opgelucht', 'opluchting', 'teleurgesteld', 'teleurstelling',
    'gefrustreerd', 'frustr*', 'irritant', 'irritatie', 'geergerd', 'ergernis', 'verdrietig', 'enthousiast', 'gedoe',
    'vervelend', 'stress*', 'schrik*', 'verbaasd', 'verrast', 'baal*', 'onzeker',
    'gemengd', 'woedend', 'trots', 'teleurstel*', 'irritant*', 'ongerust', 'zorgen', 'hekel', 'genieten', 
  ], 3),
  // Verdicts: a judgement more than a feeling, asked about only when nothing stronger was said.
  ...cue('feeling', ['vreselijk', 'heerlijk', 'geweldig', 'fantastisch', 'verschrikkelijk']),
  ...cue('feeling', ['eerlijk gezegd', 'best', 'echt', 'een beetje', 'voel*', 'vond*'], 1),
  ...cue('comparison', ['*er dan', 'beter|meer|minder dan', 'vergeleken|vergelijking', 'vroeger', 'net zo', 'anders dan', 'zoals bij']),
  ...cue('comparison', [
    'goedkoper', 'duurder', 'sneller', 'trager', 'beter', 'slechter', 'makkelijker', 'erger', 'vorige', 'oude', 'hier',
    'bij de|het', 'wel',
  ], 1),
  ...cue('number', ['helft', 'dubbel', 'twee|drie keer zoveel']),
  ...cue('number', ['ruim', "zo'n", 'ongeveer', 'bijna', 'pas', 'slechts', 'rond', 'circa', 'hooguit', 'minstens', 'zeker', 'of', 'keer'], 1),
  // Breder vocabulaire per reden (algemene synoniemen, geen zinnen uit een gelabeld antwoord).
  ...cue('problem', [
    'omslachtig', 'onbetrouwbaar', 'onmogelijk', 'drama', 'rommel', 'waardeloos', 'verdwe*', 'vertraag*', 'vertraging',
    'te laat', 'dubbel afgeschreven', 'buitengesloten', 'storing', 'haperen', 'lukt|lukte niet', 'kwijt',
  ]),
  ...cue('problem', ['weer', 'elke keer', 'telkens', 'nog steeds'], 1),
  ...cue('event', ['bleek', 'kwam erachter', 'ontdekte', 'op een dag', 'afgewezen', 'geweigerd', 'verwijderd', 'gewist', 'teruggestuurd', 'geklaagd', 'gebeld', 'gemaild', 'overgestapt']),
  ...cue('event', ['terugbetaal*', 'daarna', 'uiteindelijk'], 1),
  ...cue('workaround', ['truc*', 'mijn eigen', 'vraag _ collega', 'lijstje', 'screenshot*', 'mail mezelf', 'herinnering', 'wekker', 'dubbel controleren', 'notitie*', 'briefje', 'post-it*', 'omheen']),
  ...cue('workaround', ['lijst', 'agenda', 'apart', 'appje', 'sms'], 1),
  ...cue('feeling', [
    'eng', 'hoopvol', 'dankbaar', 'verveel*', 'moe', 'uitgeput', 'genie*', 'onder de indruk', 'sceptisch', 'ongemakkelijk',
    'tevreden', 'ontevreden', 'ongelukkig', 'wantrouw*', 'ergerlijk', 'chagrijnig', 'balen',
  ], 3),
  ...cue('comparison', ['vergelijkbaar', 'lijkt op', 'niet zo _ als', 'in vergelijking', 'daarentegen', 'de andere']),
  ...cue('number', ['minstens', 'minder|meer dan', 'een derde|kwart', 'procent']),
];

const FIRST_PERSON = new Set(['ik', 'we', 'wij']);

/** Where "ik" stands after one of these, its verb is at the end of the clause: shifting it is left to a quote. */
const SUBORDINATORS = new Set(['dat', 'als', 'omdat', 'toen', 'wanneer', 'die', 'waar', 'of', 'zodat', 'terwijl', 'voordat', 'nadat', 'totdat', 'hoe', 'wat']);

/** Irregular "ik"-forms with their "je"-form after the subject; with "je" after the verb the form is unchanged except these. */
const AFTER_SUBJECT: Record<string, string> = {
  ben: 'bent', heb: 'hebt', kan: 'kunt', wil: 'wilt', zal: 'zult', ga: 'gaat', sta: 'staat', doe: 'doet', zie: 'ziet',
  sla: 'slaat', kom: 'komt', vind: 'vindt', word: 'wordt', hou: 'houdt', houd: 'houdt',
};
const INVERTED: Record<string, string> = { kan: 'kun', zal: 'zul', ben: 'ben', heb: 'heb' };
/** Past tenses and forms that are the same with "je". */
const UNCHANGED = new Set(['was', 'had', 'moet', 'mocht', 'kon', 'wou', 'wilde', 'zat', 'ging', 'kwam', 'zag', 'deed', 'werd', 'bleef', 'moest', 'weet', 'kreeg', 'stond', 'liep', 'dacht', 'wist', 'vond']);

const PRONOUNS: Record<string, string> = { me: 'je', mij: 'jou', mijn: 'je', mezelf: 'jezelf', we: 'jullie', wij: 'jullie', ons: 'jullie', onze: 'jullie' };

/**
 * Dutch persons in a main clause: "ik zet" → "je zet", "ik bel" → "je belt" (the verb takes -t
 * after the subject), "dan bel ik" → "dan bel je" (not before it), "mijn" → "je". "ik" in a
 * subordinate clause has its verb at the end: not shifted, the span is quoted instead.
 */
function shift(words: readonly WordToken[]): (string | undefined)[] | null {
  const out: (string | undefined)[] = words.map((word) => PRONOUNS[word.norm]);
  for (let index = 0; index < words.length; index += 1) {
    if (words[index]!.norm !== 'ik') continue;
    out[index] = 'je';
    if (index === 0) {
      const verb = words[index + 1];
      if (!verb) return null;
      out[index + 1] = AFTER_SUBJECT[verb.norm] ?? (UNCHANGED.has(verb.norm) || /(te|de|ten|den|t)$/.test(verb.norm) ? undefined : `${verb.text}t`);
    } else {
      const before = words[index - 1]!;
      if (SUBORDINATORS.has(before.norm) || index > 3) return null;
      out[index - 1] = INVERTED[before.norm] ?? out[index - 1];
    }
  }
  return out;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const DUTCH_PROBES: ProbeLanguage = {
  code: 'nl',
  splitElision: false,
  cues: CUES,
  clauseOpeners: ['maar', 'omdat', 'want', 'dus', 'terwijl', 'totdat', 'zodat', 'alleen', 'daarna', 'waardoor', 'terwijl'],
  coordinators: ['en', 'of'],
  subjectStarters: [
    'ik', 'je', 'jij', 'u', 'hij', 'zij', 'ze', 'het', 'we', 'wij', 'jullie', 'men', 'de', 'een', 'die', 'dat', 'dit',
    'deze', 'mijn', 'onze', 'ons', 'zijn', 'haar', 'hun', 'iedereen', 'niemand', 'alles', 'er', 'niks', 'niets',
  ],
  frontedAdverbs: ['dan', 'nu', 'toen', 'soms', 'daarna', 'vorige', 'vroeger', 'eigenlijk', 'hier', 'daar', 'meestal', 'laatst', 'gisteren'],
  edgeFillers: [
    'eh', 'ehm', 'uh', 'nou', 'ja', 'nee', 'hoor', 'dus', 'en', 'maar', 'gewoon', 'eigenlijk', 'eerlijk gezegd', 'zeg maar',
    'weet je', 'ik denk', 'echt', 'officieel', 'toch', 'hè',
  ],
  numberWords: new Set([...Object.keys(DUTCH_LEXICON.numbers.units), ...Object.keys(DUTCH_LEXICON.numbers.tens), 'honderd', 'duizend', 'tientallen', 'honderden']
    .filter((word) => word !== 'een' && word !== 'één')),
  quantityQuestions: ['hoeveel', 'hoe lang|vaak|duur'],
  finished: ['alles _ gezegd', 'alles gezegd', 'niets|niks meer|anders', 'dat was het', 'verder niets|niks', 'dat is alles'],
  presupposesDifficulty: ['moeilijk*', 'lastig*', 'probleem*', 'misging', 'mis ging', 'fout', 'frustr*', 'ergst*', 'ergernis*', 'vervelend*', 'uitdaging*', 'knelpunt*', 'tegen'],
  firstPerson: FIRST_PERSON,
  shift,
  lowercaseFirst: (word) => !/\p{Lu}.*\p{Lu}/u.test(word.text),
  reported: (clause) => `${capitalize(clause)}, zei je.`,
  quoted: (span) => `Je noemde „${span}”.`,
  questions: {
    problem: ['Wat doe je als dat gebeurt?', 'Wat betekent dat voor je?'],
    event: ['Wat gebeurde er toen?', 'Hoe kwam dat zo?'],
    workaround: ['Hoe ben je zo gaan werken?', 'Wat kost het je om het zo te doen?'],
    feeling: ['Waardoor voel je je zo?', 'Waar komt dat gevoel vandaan?'],
    comparison: ['Waar zit voor jou het verschil?', 'Hoe merk je dat verschil in de praktijk?'],
    number: ['Wat zit er achter dat getal?', 'Hoe kom je op dat aantal?'],
  },
  thirdPartyQuestions: {
    workaround: ['Hoe is die werkwijze zo ontstaan?', 'Wat kost het om het zo te doen?'],
    feeling: ['Waar komt dat gevoel vandaan?', 'Wat zit er achter dat gevoel?'],
  },
};
