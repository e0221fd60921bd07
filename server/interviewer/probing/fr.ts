import { FRENCH_LEXICON } from '../answer-parsing/fr.js';
import type { ProbeCue, ProbeLanguage } from './language.js';
import type { WordToken } from './words.js';

const cue = (reason: ProbeCue['reason'], patterns: string[], weight = 2, extra: Partial<ProbeCue> = {}): ProbeCue[] =>
  patterns.map((pattern) => ({ pattern, reason, weight, ...extra }));

const CUES: ProbeCue[] = [
  // "ne"/"n'" marks every negation, whatever follows ("ne tombe jamais", "n'avait rien").
  ...cue('problem', ['ne', 'n', 'jamais', 'personne', 'aucun*']),
  ...cue('problem', [
    'bug*',
    'panne',
    'erreur*',
    'probleme*',
    'plante',
    'complique*',
    'difficile',
    'galere*',
    'impossible',
    'rejette*',
    'decolle',
    'deconnecte*',
    'tout perdu',
    'mal _',
    'trop _',
    'tourne en rond',
    'bloque*',
  ]),
  ...cue('problem', ['lent', 'met|mettent _ minutes|heures|jours', 'toujours', 'chaque', 'a chaque'], 1),
  ...cue('event', ['abandonne', 'laisse tomber', 'arrete'], 3, { question: "Qu'est-ce qui vous a fait arrêter ?", personal: true }),
  ...cue('event', ['failli|presque resilier|annuler'], 3, { question: "Qu'est-ce qui vous a donné envie de résilier ?", personal: true }),
  ...cue('event', [
    'la veille',
    'le premier|dernier _',
    'la derniere fois',
    'la semaine|le mois|l annee derniere|dernier',
    'hier',
    'soudain*',
    'du jour au lendemain',
    'annule*',
    'rate',
    'supprime*',
    'coupe*',
    'a|ai|avons|avez|ont du',
    'perdu',
    'venu',
    'passe',
    'en plein _',
    'sans explication|prevenir',
  ]),
  ...cue('event', ['depuis', 'apres', 'a|ont|ai|avons *e|*i|*u', 'est|sont *e|*i|*u', 'puis'], 1),
  ...cue('workaround', ['a la main', 'manuellement', 'moi meme', 'a la place', 'au lieu'], 3),
  ...cue('workaround', [
    'post it',
    'cahier',
    'papier',
    'pansement',
    'excel',
    'imprim*',
    'en plus',
    'je les|le|la|leur|vous envoie|recouvre|note|ecris|imprime',
  ]),
  ...cue('workaround', ['alors', 'du coup', 'donc', 'normalement', 'sms', 'mail', 'pdf', 'whatsapp', 'envoie', 'note*', 'recouvre', 'on se', 'laisse'], 1),
  ...cue(
    'feeling',
    [
      'panique*',
      'enerve*',
      'agace*',
      'colere',
      'furieux',
      'furieuse',
      'decu*',
      'content*',
      'heureux',
      'heureuse',
      'soulage*',
      'peur',
      'stress*',
      'angoiss*',
      'inquiet*',
      'frustr*',
      'mal a l aise',
      'gene*',
      'honte',
      'ravi*',
      'adore*',
      'deteste*',
      'marre',
      'fatigue*',
      'triste',
      'enthousias*',
      'rassure*',
      'choque*',
      'vexe*',
      'deprime*',
    ],
    3,
  ),
  // Verdicts: a judgement more than a feeling, asked about only when nothing stronger was said.
  ...cue('feeling', ['genial', 'horrible', 'catastroph*', 'nul', 'super', 'penible']),
  ...cue('feeling', ['franchement', 'honnetement', 'assez', 'un peu', 'tres', 'vraiment', 'sens*'], 1),
  ...cue('comparison', [
    'plus|moins|mieux|pire _ que',
    'mieux|pire que',
    'par rapport',
    'compare*',
    'comparaison',
    'le jour et la nuit',
    'moins',
    'mieux',
    'pire',
  ]),
  ...cue('comparison', ['avant', 'ici', 'chez', 'plus', 'au moins', 'autant'], 1),
  ...cue('number', [
    'le double',
    'la moitie',
    'dizaine',
    'douzaine',
    'quinzaine',
    'vingtaine',
    'trentaine',
    'quarantaine',
    'cinquantaine',
    'soixantaine',
    'centaine',
  ]),
  ...cue('number', ['presque', 'environ', 'a peu pres', 'moins|plus de', 'pleins', 'au moins', 'a peine', 'seulement', 'quasiment'], 1),
  // Vocabulaire plus large par raison (synonymes généraux, aucune phrase d'une réponse étiquetée).
  ...cue('problem', ['pas fiable', 'cauchemar', 'bazar', 'inutile', 'disparu*', 'disparai*', 'retard*', 'preleve deux fois', 'rame', 'bugue', 'casse*']),
  ...cue('problem', ['encore', 'a chaque fois', 'sans arret'], 1),
  ...cue('event', ['il s est avere', 'decouvert', 'un jour', 'l autre jour', 'refuse*', 'efface*', 'renvoye*', 'reclame*', 'appele*', 'resilie*']),
  ...cue('event', ['rembourse*', 'ensuite', 'finalement', 'au final'], 1),
  ...cue('workaround', [
    'astuce',
    'bricol*',
    'contourne*',
    'mon propre|ma propre|mes propres',
    'demande a un|une collegue',
    'liste',
    'capture*',
    'rappel',
    'alarme',
    'agenda',
    'tableau',
  ]),
  ...cue('workaround', ['a part', 'separe*', 'texto'], 1),
  ...cue(
    'feeling',
    [
      'effrayant',
      'reconnaissant*',
      'ennuy*',
      'epuise*',
      'ras le bol',
      'apprecie*',
      'impressionne*',
      'sceptique',
      'satisfait*',
      'insatisfait*',
      'mefian*',
      'soulagement',
      'nerveux',
      'nerveuse',
    ],
    3,
  ),
  ...cue('comparison', ['comme l ancien|ancienne', 'pas aussi _ que', 'contrairement', 'alors qu', 'l autre', 'meme chose que']),
  ...cue('number', ['un tiers|quart', 'pour cent', 'pourcent']),
];

const FIRST_PERSON = new Set(['je', 'j', 'nous']);

/** Object clitics between the subject and its verb ("je le recouvre", "je ne trouve"). */
const CLITICS = new Set(['ne', 'n', 'le', 'la', 'les', 'l', 'lui', 'leur', 'y', 'en', 'me', 'm', 'te', 't', 'se', 's', 'vous', 'nous']);

/** First-person verb forms whose "vous"-form is not the rule's. */
const IRREGULAR: Record<string, string> = {
  ai: 'avez',
  suis: 'êtes',
  peux: 'pouvez',
  dois: 'devez',
  fais: 'faites',
  vais: 'allez',
  sais: 'savez',
  veux: 'voulez',
  avais: 'aviez',
  étais: 'étiez',
  crois: 'croyez',
  vois: 'voyez',
  prends: 'prenez',
  mets: 'mettez',
  dis: 'dites',
  viens: 'venez',
  envoie: 'envoyez',
  paie: 'payez',
  dors: 'dormez',
  pars: 'partez',
  sors: 'sortez',
  connais: 'connaissez',
  lis: 'lisez',
  écris: 'écrivez',
  finis: 'finissez',
  choisis: 'choisissez',
  reçois: 'recevez',
  bois: 'buvez',
  perds: 'perdez',
  attends: 'attendez',
  réponds: 'répondez',
  vends: 'vendez',
  appelle: 'appelez',
  jette: 'jetez',
  essaie: 'essayez',
  emploie: 'employez',
  nettoie: 'nettoyez',
  ouvre: 'ouvrez',
  offre: 'offrez',
  tiens: 'tenez',
  comprends: 'comprenez',
  avons: 'avez',
  sommes: 'êtes',
  faisons: 'faites',
  allons: 'allez',
  disons: 'dites',
};

/** A verb's "vous"-form from its "je"- or "nous"-form, or null where the ending does not tell. */
function vousForm(verb: string): string | null {
  const lower = verb.toLowerCase();
  const irregular = IRREGULAR[lower];
  if (irregular) return irregular;
  if (lower.endsWith('ons')) return `${lower.slice(0, -3)}ez`;
  if (lower.endsWith('ais')) return `${lower.slice(0, -3)}iez`;
  if (lower.endsWith('rai')) return `${lower.slice(0, -3)}rez`;
  // Present of -er verbs: "recouvre" → "recouvrez"; a grave accent in the stem changes ("achète" → "achetez"): left to a quote.
  if (lower.endsWith('e') && !/è/.test(lower)) return `${lower}z`;
  return null;
}

const PRONOUNS: Record<string, string> = {
  me: 'vous',
  m: 'vous',
  moi: 'vous',
  mon: 'votre',
  ma: 'votre',
  mes: 'vos',
  notre: 'votre',
  nos: 'vos',
  nous: 'vous',
};

/**
 * French persons (the catalogue says "vous"): "je"/"nous" → "vous" and their verb, found after
 * any clitics ("je le recouvre" → "vous le recouvrez", "j'ai dû" → "vous avez dû"); "me"/"m'"
 * → "vous", "mon"/"ma" → "votre", "mes" → "vos". "On" stays: "qu'on se laisse des post-it" reads well.
 */
function shift(words: readonly WordToken[]): (string | undefined)[] | null {
  const out: (string | undefined)[] = words.map((word) => PRONOUNS[word.norm]);
  for (let index = 0; index < words.length; index += 1) {
    const norm = words[index]!.norm;
    if (norm !== 'je' && norm !== 'j' && norm !== 'nous') continue;
    // "nous" after a verb is its object ("il nous a logés"), already "vous".
    if (norm === 'nous' && index > 0 && !CLITICS.has(words[index - 1]!.norm) && words[index - 1]!.norm !== 'et') continue;
    out[index] = 'vous';
    let verbAt = index + 1;
    while (verbAt < words.length && CLITICS.has(words[verbAt]!.norm)) verbAt += 1;
    const verb = words[verbAt];
    if (!verb) return null;
    const form = vousForm(verb.text);
    if (!form) return null;
    out[verbAt] = form;
  }
  return out;
}

/** "que" elides before a vowel or mute h: "qu'il", "qu'on". */
function que(clause: string): string {
  return /^[aeiouyéèêàâîôûh]/i.test(clause) ? `qu'${clause}` : `que ${clause}`;
}

export const FRENCH_PROBES: ProbeLanguage = {
  code: 'fr',
  splitElision: true,
  cues: CUES,
  clauseOpeners: ['mais', 'parce que', 'car', 'donc', 'alors', 'du coup', 'puis', 'et depuis', 'alors que', 'pendant que', 'sauf que', 'tandis que'],
  coordinators: ['et', 'ou'],
  subjectStarters: [
    'je',
    'j',
    'nous',
    'on',
    'il',
    'elle',
    'ils',
    'elles',
    'ce',
    'c',
    'ca',
    'le',
    'la',
    'les',
    'l',
    'mon',
    'ma',
    'mes',
    'notre',
    'nos',
    'personne',
    'tout',
    'rien',
    'chacun',
    'quelqu',
    'cela',
  ],
  frontedAdverbs: ['au', 'sur', 'depuis', 'hier', 'ici', 'maintenant', 'avant', 'parfois', 'souvent', 'normalement', 'chez'],
  edgeFillers: [
    'bah',
    'ben',
    'euh',
    'bon',
    'beh',
    'hein',
    'oui',
    'non',
    'enfin',
    'et',
    'mais',
    'franchement',
    'honnetement',
    'en fait',
    'quoi',
    'voila',
    'bref',
  ],
  numberWords: new Set(
    [...Object.keys(FRENCH_LEXICON.numbers.units), ...Object.keys(FRENCH_LEXICON.numbers.tens), 'cent', 'cents', 'mille', 'centaines', 'milliers']
      .map((word) =>
        word
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
      )
      .filter((word) => !['un', 'une'].includes(word)),
  ),
  quantityQuestions: ['combien', 'quel|quelle montant|nombre|budget|part|duree|prix'],
  finished: ['tout dit', 'rien d autre', 'rien a ajouter', 'c est tout', 'rien de plus'],
  presupposesDifficulty: [
    'difficile*',
    'dur',
    'probleme*',
    'mal passe',
    'mal tourne',
    'frustr*',
    'penible*',
    'pire',
    'galere*',
    'obstacle*',
    'complique*',
    'agace*',
  ],
  firstPerson: FIRST_PERSON,
  shift,
  lowercaseFirst: (word) => !/\p{Lu}.*\p{Lu}/u.test(word.text),
  reported: (clause) => `Vous dites ${que(clause)}.`,
  quoted: (span) => `Vous avez dit « ${span} ».`,
  questions: {
    problem: ['Que faites-vous quand cela arrive ?', "Qu'est-ce que cela change pour vous ?"],
    event: ["Que s'est-il passé ensuite ?", 'Comment en est-on arrivé là ?'],
    workaround: ["Qu'est-ce qui vous pousse à faire ainsi ?", 'Que vous coûte cette façon de faire ?'],
    feeling: ["Qu'est-ce qui vous fait ressentir cela ?", "D'où vient ce sentiment ?"],
    comparison: ['Où se situe la différence pour vous ?', 'Comment cette différence se traduit-elle au quotidien ?'],
    number: ['Que représente ce chiffre pour vous ?', 'Comment arrivez-vous à ce chiffre ?'],
  },
  thirdPartyQuestions: {
    workaround: ["Comment cette façon de faire s'est-elle mise en place ?", 'Que coûte cette façon de faire ?'],
    feeling: ["D'où vient ce sentiment ?", "Qu'est-ce qui est à l'origine de ce sentiment ?"],
  },
};
