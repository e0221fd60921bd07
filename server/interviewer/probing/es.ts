import { SPANISH_LEXICON } from '../answer-parsing/es.js';
import type { ProbeCue, ProbeLanguage } from './language.js';
import type { WordToken } from './words.js';

const cue = (reason: ProbeCue['reason'], patterns: string[], weight = 2, extra: Partial<ProbeCue> = {}): ProbeCue[] =>
  patterns.map((pattern) => ({ pattern, reason, weight, ...extra }));

const CUES: ProbeCue[] = [
  ...cue('problem', ['no', 'nunca', 'nadie', 'nada', 'ningun*', 'jamas']),
  ...cue('problem', [
    'falla*',
    'fallo',
    'error*',
    'problema*',
    'colgad*',
    'se queda|quedo colgad*',
    'dificil',
    'complicad*',
    'se olvida',
    'tardan|tarda|tardaron|tardo',
    'demasiad*',
    'imposible',
    'roto',
    'estropead*',
    'bloquead*',
    'mal',
    'llegan despues',
  ]),
  ...cue('problem', ['lento', 'siempre', 'solo', 'ni', 'cada vez', 'mezcla*'], 1),
  ...cue('event', ['deje|abandone', 'me rendi'], 3, { question: '¿Qué te hizo dejarlo?', personal: true }),
  ...cue('event', [
    'la semana|el mes|el ano pasad*',
    'ayer',
    'de repente',
    'la ultima vez',
    'cortaron',
    'cancelaron',
    'perd*',
    'tuvimos|tuve|tuvieron|tuvo que',
    'se quedo',
    'me dijeron',
    'cuando fui',
    'en plena|pleno _',
    'nadie me aviso',
  ]),
  ...cue('event', ['dijeron', 'al final', 'avis*', '*aron', '*ieron', 'fui', 'hasta que'], 1),
  ...cue('workaround', ['a mano', 'manualmente', 'en vez de', 'en lugar de', 'por mi cuenta'], 3),
  ...cue('workaround', ['apunt*', 'libreta', 'cuaderno', 'cuadrante', 'imprim*', 'acabo|acabamos', 'le hago|lo hago', 'me salgo', 'cambie']),
  ...cue('workaround', ['asi que', 'yo', 'papel', 'excel', 'pared', 'whatsapp', 'correo', 'intente'], 1),
  ...cue(
    'feeling',
    [
      'susto',
      'miedo',
      'contento',
      'contenta',
      'contentos',
      'feliz',
      'alivio',
      'aliviad*',
      'enfadad*',
      'cabread*',
      'harto',
      'harta',
      'frustr*',
      'agobi*',
      'estres*',
      'preocupad*',
      'nervios*',
      'quemad*',
      'triste',
      'decepcion*',
      'encant*',
      'odio',
      'molest*',
      'rabia',
      'ilusion',
      'angustia*',
      'verguenza',
      'indignad*',
      'orgullos*',
      'tranquil*',
      'asustad*',
    ],
    3,
  ),
  // Verdicts: a judgement more than a feeling, asked about only when nothing stronger was said.
  ...cue('feeling', ['fatal', 'genial', 'horrible', 'un desastre', 'estupendo']),
  ...cue('feeling', ['tremendo', 'la verdad', 'muy', 'un poco', 'me siento', 'senti'], 1),
  ...cue('comparison', ['mas|menos _ que', 'mejor|peor que', 'tan _ como', 'comparad*', 'comparacion', 'en la|el de antes', 'mejor', 'peor']),
  ...cue('comparison', ['antes', 'aqui', 'mas', 'menos', 'con _', 'era'], 1),
  ...cue('number', ['el doble', 'la mitad', 'por ciento', 'el triple']),
  ...cue('number', ['casi', 'unos', 'unas', 'alrededor', 'aproximadamente', 'mas o menos', 'como', 'solo', 'veces'], 1),
  // Vocabulario más amplio por motivo (sinónimos generales, ninguna frase de una respuesta etiquetada).
  ...cue('problem', [
    'engorroso',
    'poco fiable',
    'pesadilla',
    'lio',
    'inutil',
    'desaparec*',
    'retras*',
    'cobraron dos veces',
    'se cuelga',
    'va lento',
    'funciona|funcionaba mal',
    'un rollo',
    'rota',
    'cuesta',
  ]),
  ...cue('problem', ['otra vez', 'sigue sin', 'todavia'], 1),
  ...cue('event', [
    'resulta que',
    'resulto que',
    'descubri',
    'un dia',
    'el otro dia',
    'rechaz*',
    'borr*',
    'devolv*',
    'reclam*',
    'llame',
    'llamamos',
    'me cambie',
    'cancele',
  ]),
  ...cue('event', ['reembols*', 'despues', 'luego'], 1),
  ...cue('workaround', [
    'truco',
    'apano',
    'me las arreglo',
    'mi propio|propia',
    'le pregunto|pido a un companero',
    'lista',
    'captura*',
    'recordatorio',
    'alarma',
    'nota*',
    'post-it*',
    'agenda',
    'tabla',
  ]),
  ...cue('workaround', ['aparte', 'por separado', 'sms', 'correo'], 1),
  ...cue(
    'feeling',
    [
      'da miedo',
      'esperanz*',
      'agradecid*',
      'aburrid*',
      'cansad*',
      'agotad*',
      'disfrut*',
      'impresionad*',
      'esceptic*',
      'incomod*',
      'satisfech*',
      'insatisfech*',
      'desconfi*',
      'me da pena',
    ],
    3,
  ),
  ...cue('comparison', ['parecido a', 'igual que', 'no tan _ como', 'en cambio', 'mientras que', 'el otro|la otra']),
  ...cue('number', ['al menos', 'menos|mas de', 'un tercio|cuarto']),
];

const FIRST_PERSON = new Set(['yo', 'nosotros', 'nosotras']);

/** First-person singular forms that are verbs and nothing else, with their "tú"-form. */
const VERBS: Record<string, string> = {
  soy: 'eres',
  estoy: 'estás',
  voy: 'vas',
  tengo: 'tienes',
  hago: 'haces',
  puedo: 'puedes',
  quiero: 'quieres',
  digo: 'dices',
  sé: 'sabes',
  salgo: 'sales',
  pongo: 'pones',
  vengo: 'vienes',
  pienso: 'piensas',
  entiendo: 'entiendes',
  prefiero: 'prefieres',
  sigo: 'sigues',
  pido: 'pides',
  elijo: 'eliges',
  conozco: 'conoces',
  fui: 'fuiste',
  tuve: 'tuviste',
  hice: 'hiciste',
  dije: 'dijiste',
  pude: 'pudiste',
  puse: 'pusiste',
  estuve: 'estuviste',
  quise: 'quisiste',
  vine: 'viniste',
  he: 'has',
  había: 'habías',
  creo: 'crees',
  veo: 'ves',
  doy: 'das',
  acabo: 'acabas',
  necesito: 'necesitas',
  suelo: 'sueles',
  vivo: 'vives',
  leo: 'lees',
  escribo: 'escribes',
  recibo: 'recibes',
  abro: 'abres',
  subo: 'subes',
  bebo: 'bebes',
  vendo: 'vendes',
  debo: 'debes',
  meto: 'metes',
  pierdo: 'pierdes',
  vuelvo: 'vuelves',
  muevo: 'mueves',
  cojo: 'coges',
  entro: 'entras',
};

/** Words in -o that open a clause without being a verb. */
const NOT_VERBS = new Set([
  'como',
  'pero',
  'todo',
  'poco',
  'mucho',
  'solo',
  'algo',
  'nuevo',
  'otro',
  'mismo',
  'tampoco',
  'luego',
  'claro',
  'eso',
  'esto',
  'cuando',
  'cuanto',
  'medio',
  'primero',
  'bueno',
  'malo',
  'cierto',
  'uno',
  'ninguno',
  'alguno',
  'dentro',
  'pronto',
  'centro',
  'año',
  'caso',
  'rato',
  'trabajo',
  'pago',
  'correo',
  'móvil',
  'banco',
  'precio',
  'servicio',
  'equipo',
]);

/** Words ending in an accented -í that are not preterites. */
const NOT_PRETERITE = new Set(['aquí', 'así', 'allí', 'ahí', 'sí', 'mí', 'tí', 'ahi', 'aqui']);

/**
 * A verb's "tú"-form where its first-person form says so unambiguously: the listed verbs, the
 * preterites in -é (-ar: "cambié" → "cambiaste") and -í (-er/-ir: "perdí" → "perdiste"), the
 * imperfects in -aba/-ía; a present in -o only right after "yo" or an object pronoun ("me
 * salgo", "nunca me entero"), read as -ar ("-as"). Null where none applies.
 */
function tuForm(word: string, afterMarker: boolean): string | null {
  const lower = word.toLowerCase();
  if (VERBS[lower]) return VERBS[lower]!;
  if (/[^aeiou]é$/.test(lower) || /[^aeiou]ié$/.test(lower)) return `${lower.slice(0, -1)}aste`.replace(/iaste$/, 'iaste');
  if (/í$/.test(lower) && !NOT_PRETERITE.has(lower) && lower.length > 3) return `${lower.slice(0, -1)}iste`;
  if (afterMarker && /aba$/.test(lower)) return `${lower}s`;
  if (afterMarker && /ía$/.test(lower)) return `${lower}s`;
  if (afterMarker && /o$/.test(lower) && lower.length > 3) return `${lower.slice(0, -1)}as`;
  return null;
}

const PRONOUNS: Record<string, string> = {
  yo: 'tú',
  me: 'te',
  mi: 'tu',
  mis: 'tus',
  conmigo: 'contigo',
  mío: 'tuyo',
  mía: 'tuya',
  míos: 'tuyos',
  mías: 'tuyas',
};
const OBJECT_PRONOUNS = new Set(['me', 'lo', 'la', 'le', 'les', 'los', 'las', 'se', 'no', 'nunca', 'ya', 'yo', 'siempre']);
/** "nos"/"nosotros"/"nuestro" need the "vosotros" verb forms this layer does not build: quoted instead. */
const FIRST_PLURAL = new Set(['nosotros', 'nosotras', 'nos', 'nuestro', 'nuestra', 'nuestros', 'nuestras']);

/**
 * Spanish persons (the catalogue says "tú"): Spanish drops its subject, so a first-person verb
 * is recognised by its form (see `tuForm`) or by "yo"/"me" next to it; "me" → "te", "mi" →
 * "tu". A clause with a first-person verb this cannot place, or speaking as "we", is quoted.
 */
function shift(words: readonly WordToken[]): (string | undefined)[] | null {
  const out: (string | undefined)[] = [];
  let speaksOfSelf = false;
  let shiftedVerb = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const lower = word.text.toLowerCase();
    if (FIRST_PLURAL.has(lower) || /(amos|emos|imos)$/.test(lower)) return null;
    if (PRONOUNS[lower]) {
      out.push(PRONOUNS[lower]);
      if (lower === 'yo') speaksOfSelf = true;
      continue;
    }
    const previous = words[index - 1]?.text.toLowerCase();
    const afterMarker =
      (previous !== undefined && (OBJECT_PRONOUNS.has(previous) || previous === 'yo')) || (index === 0 && words[index + 1]?.text.toLowerCase() === 'yo');
    const form = VERBS[lower] || (index === 0 && !NOT_VERBS.has(lower)) || afterMarker ? tuForm(word.text, afterMarker || index === 0) : null;
    // After "me" a third-person verb stays ("me cortaron la luz" → "te cortaron la luz").
    if (form && (VERBS[lower] || !/(aron|ieron|ó|a|e|an|en)$/.test(lower) || /[éí]$/.test(lower))) {
      out.push(form);
      shiftedVerb = true;
      continue;
    }
    out.push(undefined);
  }
  if (speaksOfSelf && !shiftedVerb) return null;
  return out;
}

/** A clause opening with a first-person verb ("Apunto todo…", "acabo poniendo yo…") has its subject in the verb. */
function startsWithVerb(words: readonly WordToken[]): boolean {
  const first = words[0]!.text.toLowerCase();
  return !NOT_VERBS.has(first) && tuForm(first, true) !== null && !/(a|e|an|en)$/.test(first);
}

export const SPANISH_PROBES: ProbeLanguage = {
  code: 'es',
  splitElision: false,
  cues: CUES,
  clauseOpeners: ['pero', 'porque', 'asi que', 'aunque', 'hasta que', 'mientras', 'y al final', 'y cada vez'],
  coordinators: ['y', 'o'],
  subjectStarters: [
    'yo',
    'me',
    'mi',
    'mis',
    'el',
    'la',
    'los',
    'las',
    'nadie',
    'todo',
    'todos',
    'eso',
    'esto',
    'ella',
    'ellos',
    'ellas',
    'el',
    'siempre',
    'nunca',
    'le',
    'lo',
    'se',
    'que',
  ],
  frontedAdverbs: ['en', 'con', 'al', 'hoy', 'ayer', 'ahora', 'antes', 'aqui'],
  edgeFillers: ['pues', 'bueno', 'eh', 'em', 'mmm', 'vale', 'si', 'no', 'y', 'pero', 'la verdad', 'o sea', 'vamos', 'hombre', 'que'],
  numberWords: new Set(
    [
      ...Object.keys(SPANISH_LEXICON.numbers.units),
      ...Object.keys(SPANISH_LEXICON.numbers.tens),
      'cien',
      'ciento',
      'cientos',
      'mil',
      'doscientos',
      'trescientos',
      'cuatrocientos',
      'quinientos',
      'seiscientos',
      'setecientos',
      'ochocientos',
      'novecientos',
      'once',
      'doce',
    ]
      .map((word) =>
        word
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase(),
      )
      .filter((word) => !['un', 'uno', 'una'].includes(word)),
  ),
  quantityQuestions: ['cuanto*|cuanta*', 'cada cuanto'],
  finished: ['lo he dicho todo', 'ya lo he dicho', 'nada mas', 'eso es todo', 'nada que anadir', 'ya esta'],
  presupposesDifficulty: ['dificil*', 'problema*', 'salio mal', 'lo peor', 'frustr*', 'complicad*', 'obstaculo*', 'molest*', 'lo mas duro', 'costo'],
  firstPerson: FIRST_PERSON,
  startsWithVerb,
  shift,
  lowercaseFirst: (word) => !/\p{Lu}.*\p{Lu}/u.test(word.text),
  reported: (clause) => `Dices que ${clause}.`,
  quoted: (span) => `Has dicho «${span}».`,
  questions: {
    problem: ['¿Qué haces cuando pasa eso?', '¿Cómo te afecta eso?'],
    event: ['¿Qué pasó después?', '¿Cómo se llegó a eso?'],
    workaround: ['¿Cómo llegaste a hacerlo así?', '¿Qué te cuesta hacerlo así?'],
    feeling: ['¿Qué es lo que te hace sentir así?', '¿De dónde viene esa sensación?'],
    comparison: ['¿Dónde está la diferencia para ti?', '¿Cómo notas esa diferencia en el día a día?'],
    number: ['¿Qué hay detrás de esa cifra?', '¿Cómo llegas a esa cifra?'],
  },
  thirdPartyQuestions: {
    workaround: ['¿Cómo surgió esa forma de hacerlo?', '¿Qué cuesta hacerlo así?'],
    feeling: ['¿De dónde viene esa sensación?', '¿Qué hay detrás de esa sensación?'],
  },
};
