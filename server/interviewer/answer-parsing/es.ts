import type { AnswerLexicon } from './lexicon.js';

/*
 * Spanish. Text is folded before matching ("sí" is "si", "¿" and "¡" are dropped as punctuation,
 * "ñ" is "n"), so words below may be written with or without accents. "si" is both "yes" and
 * "if": it counts as yes, except where only "if" can be meant ("solo si", "si tuviera").
 * Spanish negates verbs with a preceding "no" ("no lo he usado"): "no" is a particle answer only
 * alone or before words that keep it one ("no, gracias", "no nunca"); before a clitic or a common
 * verb it is a clausal answer, which a particle outranks ("sí, no tuve problemas" is yes).
 */

const CLITICS = '(me|te|se|nos|os|lo|la|los|las|le|les)';
/** Common verb forms said right after "no" in an answer: auxiliaries and the verbs questions ask about. */
const VERBS =
  '(he|has|ha|hemos|han|habia|habiamos|hubo|hay|habria|tengo|tenemos|tiene|tienen|tenia|teniamos|tuve|tuvimos|tuvo|' +
  'es|son|era|eran|fue|fueron|seria|sea|soy|somos|estoy|esta|estamos|estaba|estuve|estuvo|puedo|podemos|puede|pude|' +
  'pudimos|pudo|podia|podria|uso|usamos|use|usaba|usabamos|utilizo|utilice|utilizamos|hago|hacemos|hice|hicimos|hizo|' +
  'funciona|funciono|funcionaba|sirve|sirvio|servia|quiero|queria|quise|necesito|necesite|necesitamos|necesitaba|' +
  'recomendaria|recomiendo|recomende|volveria|repetiria|compraria|pagaria|pague|compre|probe|probamos|vi|vimos|veo|' +
  'encontre|encontramos|consegui|conseguimos|logre|entendi|entiendo|llegue|llego|resulto|conozco|conocia|paso|pasa|' +
  'suelo|solemos|creo|diria|gusta|gusto|gusto|encanta|encanto|vale|valio|merece|merecio|tarde|costo|cuesta|' +
  'ayudo|ayuda|cambio|cambie|cambiamos|sabia|iba|voy|vamos|fui|fuimos)';
const SUBJECTS = '(yo|nosotros|nosotras|ellos|ellas|el|ella|usted|ustedes)';

/**
 * Light Spanish stemmer: plurals (-s, -es), -mente adverbs, -idad nouns, common verb endings
 * (-ar/-er/-ir, -ado/-ido, -ando/-iendo), a final gender vowel and -ico adjectives, so "tardes"/"tarde",
 * "funciones"/"función", "diariamente"/"diario", "fácil"/"facilidad" and "usar"/"uso" compare equal.
 */
function stemSpanish(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('es') && /[^aeiou]es$/.test(stem) && !/(?:qu|gu)es$/.test(stem)) {
    stem = stem.slice(0, -2);
  } else if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss')) {
    stem = stem.slice(0, -1);
  }
  if (stem.length > 8 && stem.endsWith('mente')) stem = stem.slice(0, -5);
  if (stem.length > 6 && stem.endsWith('idad')) stem = stem.slice(0, -4);
  const verbEnding = /(?:ando|iendo|ado|ada|ido|ida)$/.exec(stem);
  if (verbEnding && stem.length - verbEnding[0].length >= 3) return stem.slice(0, -verbEnding[0].length);
  if (stem.length > 3 && /(?:ar|er|ir)$/.test(stem)) return stem.slice(0, -2);
  if (stem.length > 2 && /[aeo]$/.test(stem)) stem = stem.slice(0, -1);
  // "telefónica"/"teléfono", "electrónico"/"electrón": an -ico adjective meets its noun.
  if (stem.length > 6 && stem.endsWith('ic')) stem = stem.slice(0, -2);
  return stem;
}

/** Spanish: shaped like the English reference lexicon. */
export const SPANISH_LEXICON: AnswerLexicon = {
  apostrophes: 'split',
  numbers: {
    units: {
      cero: 0, uno: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10,
      once: 11, doce: 12, trece: 13, catorce: 14, quince: 15, dieciséis: 16, diecisiete: 17, dieciocho: 18,
      diecinueve: 19, veintiuno: 21, veintiún: 21, veintiuna: 21, veintidós: 22, veintitrés: 23, veinticuatro: 24,
      veinticinco: 25, veintiséis: 26, veintisiete: 27, veintiocho: 28, veintinueve: 29,
    },
    tens: { veinte: 20, treinta: 30, cuarenta: 40, cincuenta: 50, sesenta: 60, setenta: 70, ochenta: 80, noventa: 90 },
    hundred: ['cien'],
    fractionPhrases: [
      'y (medio|media)', 'y (un)? cuarto', 'y tres cuartos', 'y pico', 'coma', 'punto',
      'con (cinco|5|medio|veinticinco|25)',
    ],
    pronounNumbers: ['uno'],
    pronounDeterminers: [
      'el', 'este', 'ese', 'aquel', 'cada', 'ni', 'ningun', 'algun', 'cualquier', 'otro', 'mismo', 'solo',
      'primer', 'ultimo', 'nuevo', 'viejo', 'cual', 'que',
    ],
    ordinals: {
      primero: 1, primera: 1, primer: 1, segundo: 2, segunda: 2, tercero: 3, tercera: 3, tercer: 3, cuarto: 4,
      cuarta: 4, quinto: 5, quinta: 5, sexto: 6, sexta: 6, séptimo: 7, séptima: 7, sétimo: 7, sétima: 7,
      octavo: 8, octava: 8, noveno: 9, novena: 9, décimo: 10, décima: 10, undécimo: 11, undécima: 11,
      duodécimo: 12, duodécima: 12, decimotercero: 13, decimotercera: 13, decimocuarto: 14, decimocuarta: 14,
      decimoquinto: 15, decimoquinta: 15, decimosexto: 16, decimosexta: 16, decimoséptimo: 17,
      decimoséptima: 17, decimoctavo: 18, decimoctava: 18, decimonoveno: 19, decimonovena: 19, vigésimo: 20,
      vigésima: 20,
    },
    lastWords: ['último', 'última'],
    counts: {},
  },
  articles: ['un', 'una'],
  outOf: ['sobre', 'de un (total|maximo) de'],
  outOfAfterNumber: ['de'],
  // Spanish adjectives follow the number: "un 8 justito", "un cuatro alto" ("a solid 4").
  ratingUnits: [
    'estrella', 'estrellas', 'punto', 'puntos', 'pts', 'solido', 'alto', 'bajo', 'justo', 'justito', 'raspado',
    'largo', 'redondo', 'pelado', 'merecido', 'bien',
  ],
  percentWords: ['%', 'por ciento', 'porciento', 'por cien'],
  bounds: {
    above: ['(mas|mayor|mayores|superior|superiores) (de|que|a)', 'por encima de', 'arriba de', 'pasados? los?'],
    below: ['(menos|menor|menores|inferior|inferiores) (de|que|a)', 'por debajo de'],
    atLeast: ['(al|por lo) menos', 'como minimo', 'minimo', 'no menos de'],
    atMost: ['como (mucho|maximo)', 'a lo (sumo|mucho)', 'maximo', 'hasta', 'no mas de'],
    orMore: ['+', '(o|y) (mas|mayor|mayores|superior|arriba)', '(o|y)? (en adelante|para arriba)', '(al|por lo) menos', 'como minimo', 'minimo'],
    orLess: ['(o|y) (menos|menor|menores|inferior)', '(o|y)? para abajo', 'como (mucho|maximo)', 'a lo (sumo|mucho)', 'maximo'],
  },
  rangeJoiners: ['-', 'a', 'al', 'hasta'],
  rangeOpeners: ['entre', 'de', 'del', 'desde'],
  rangeAnd: ['y', 'a', 'al', 'hasta'],
  correctionPhrases: [
    'no ,', 'no espera', 'espera', 'mejor dicho', 'o mejor', 'no mejor', 'quiero decir', 'digo', 'perdon', 'perdona',
    'pensandolo (bien|mejor)', 'en realidad', 'rectifico', 'corrijo', 'bueno no', 'pero ahora', 'y ahora',
  ],
  negators: ['no', 'nunca', 'jamas', 'ni', 'tampoco'],
  negationTransparent: [
    'un', 'una', 'unos', 'unas', 'el', 'la', 'los', 'las', 'lo', 'le', 'les', 'me', 'se', 'siquiera', 'realmente', 'exactamente', 'precisamente',
    'necesariamente', 'especialmente', 'totalmente', 'del', 'todo', 'muy', 'tan', 'ni', 'es', 'era', 'fue', 'seria',
    'sea', 'daria', 'doy', 'di', 'dare', 'pondria', 'pongo', 'puse', 'pondre', 'diria', 'digo', 'merece', 'merecia',
    'por', 'con', 'mediante', 'a', 'traves', 'usar', 'uso', 'usaria', 'usaba', 'elegir', 'elijo', 'elegiria',
    'escogeria', 'quiero', 'querria', 'yo', 'de', 'siempre',
  ],
  exclusions: [
    '(todo|cualquiera|cualquier cosa|lo que sea) (menos|excepto|salvo)', 'en (vez|lugar) de', 'aparte de', 'excepto',
    'salvo', 'menos', 'antes que', 'que no sea', '(odio|odie|detesto|evito|aborrezco)', 'no (soporto|aguanto)',
    'nunca uso',
  ],
  stopwords: [
    // articles, pronouns, demonstratives
    'el', 'la', 'los', 'las', 'lo', 'un', 'una', 'unos', 'unas', 'al', 'del', 'yo', 'tu', 'usted', 'ustedes', 'el',
    'ella', 'ello', 'ellos', 'ellas', 'nosotros', 'nosotras', 'vosotros', 'vosotras', 'me', 'te', 'se', 'nos', 'os',
    'le', 'les', 'mi', 'mis', 'tus', 'su', 'sus', 'nuestro', 'nuestra', 'nuestros', 'nuestras', 'vuestro', 'vuestra',
    'mio', 'mia', 'tuyo', 'suyo', 'suya', 'conmigo', 'contigo', 'este', 'esta', 'esto', 'estos', 'estas', 'ese',
    'esa', 'eso', 'esos', 'esas', 'aquel', 'aquella', 'aquello', 'que', 'quien', 'quienes', 'cual', 'cuales',
    'cuyo', 'cuya',
    // auxiliaries and copulas
    'es', 'son', 'era', 'eran', 'fue', 'fueron', 'ser', 'sido', 'sea', 'seria', 'soy', 'somos', 'estar', 'estoy',
    'esta', 'estamos', 'estan', 'estaba', 'estaban', 'estuvo', 'estado', 'he', 'has', 'ha', 'hemos', 'han', 'habia',
    'haber', 'habria', 'hay', 'hubo', 'hubiera', 'tener', 'tengo', 'tienes', 'tiene', 'tenemos', 'tienen', 'tenia',
    'tuve', 'tuvo', 'va', 'vamos', 'van', 'iba', 'puede', 'puedo', 'podria', 'pueden',
    // prepositions and conjunctions
    'a', 'ante', 'bajo', 'con', 'contra', 'de', 'desde', 'durante', 'en', 'entre', 'hacia', 'hasta', 'mediante',
    'para', 'por', 'segun', 'sin', 'sobre', 'tras', 'y', 'e', 'o', 'u', 'ni', 'pero', 'sino', 'porque', 'pues',
    'si', 'cuando', 'donde', 'como', 'aunque', 'mientras', 'entonces', 'luego', 'asi',
    // determiners, quantifiers, negators and grammatical adverbs
    'algun', 'alguno', 'alguna', 'algunos', 'algunas', 'ningun', 'ninguno', 'ninguna', 'todo', 'toda', 'todos',
    'todas', 'cada', 'otro', 'otra', 'otros', 'otras', 'mismo', 'misma', 'mucho', 'mucha', 'muchos', 'muchas',
    'poco', 'poca', 'pocos', 'pocas', 'mas', 'menos', 'muy', 'tan', 'tanto', 'tanta', 'tambien', 'tampoco', 'ya',
    'aun', 'todavia', 'solo', 'solamente', 'aqui', 'ahi', 'alli', 'no', 'nunca', 'jamas', 'cual', 'cuanto', 'varios',
    'varias', 'demasiado', 'bastante',
  ],
  discourseWords: [
    'si', 'sip', 'claro', 'vale', 'ok', 'okey', 'bueno', 'pues', 'eh', 'em', 'ehm', 'mm', 'mmm', 'hmm', 'hm', 'ah',
    'oh', 'ay', 'bah', 'uf', 'quizas', 'quiza', 'tal', 'vez', 'igual', 'probablemente', 'posiblemente',
    'seguramente', 'definitivamente', 'claramente', 'ciertamente', 'obviamente', 'absolutamente', 'seguro',
    'honestamente', 'sinceramente', 'francamente', 'realmente', 'verdad', 'basicamente', 'literalmente', 'general',
    'generalmente', 'normalmente', 'casi', 'aproximadamente', 'alrededor', 'mas', 'menos', 'unos', 'unas', 'algo',
    'diria', 'digo', 'dije', 'doy', 'daria', 'di', 'dare', 'pongo', 'pondria', 'puse', 'pondre', 'calificaria',
    'puntuaria', 'valoraria', 'nota', 'puntuacion', 'puntaje', 'calificacion', 'valoracion', 'creo', 'pienso',
    'supongo', 'imagino', 'se', 'sabes', 'mira', 'oye', 'gracias', 'favor', 'jaja', 'jeje', 'lol', 'personalmente',
    'actualmente', 'hoy', 'merece', 'mereceria', 'merecia', 'estrellas', 'estrella', 'sin', 'duda', 'exacto',
    'vamos', 'ver', 'digamos', 'tipo', 'plan', 'fin', 'total', 'sea', 'perdon', 'espera', 'mejor', 'dicho', 'quedo',
    'elijo', 'escojo', 'voto', 'diriamos', 'yo',
  ],
  referenceWords: ['opcion', 'numero', 'num', 'respuesta', 'alternativa', 'letra', 'la', 'el'],
  ordinalNouns: ['opcion', 'opciones', 'respuesta', 'alternativa', 'casilla'],
  meaningShifters: [
    'no', 'ni', 'sin', 'nunca', 'jamas', 'menos', 'mas', 'mayor', 'menor', 'que', 'encima', 'debajo', 'excepto',
    'salvo', 'solo', 'solamente', 'nada', 'ningun', 'ninguno', 'ninguna', 'poco', 'hasta',
  ],
  intensifiers: [
    'muy', 'mucho', 'muchisimo', 'super', 'extremadamente', 'totalmente', 'completamente', 'altamente', 'bastante',
    'algo', 'poco', 'tan', 'mas', 'menos', 'sumamente', 'increiblemente', 'realmente', 'demasiado', 'nada',
    'ligeramente', 're',
  ],
  downtoners: [
    'bastante', 'algo', 'un poco', 'un tanto', 'medio', 'relativamente', 'razonablemente', 'mas o menos', 'casi',
    'no del todo', 'ligeramente', 'moderadamente', 'mayormente', 'tirando a', 'mas bien',
  ],
  polarity: {
    yes: [
      'si', 'sip', 'sii', 'siii', 'sep', 'claro', 'por supuesto', 'desde luego', 'exacto', 'exactamente', 'efectivamente',
      'eso es', 'asi es', 'correcto', 'cierto', 'afirmativo', 'obvio', 'obviamente', 'seguro', 'evidentemente',
      'sin (ninguna)? (duda|dudas)', 'ya lo creo', 'como no', 'por que no', 'totalmente', 'absolutamente',
      'definitivamente', 'ciertamente', 'es (verdad|cierto|correcto)', 'tienes razon', 'aja', 'aha', 'ajam',
      'mhm', 'ujum', 'dale', 'claro que (si)?', 'por supuesto que si', 'desde luego que si', 'verdadero',
    ],
    no: [
      'para nada', 'en absoluto', 'nunca', 'jamas', 'nunca jamas', 'tampoco', 'nada', 'ninguno', 'ninguna',
      'no (mucho|demasiado|tanto|realmente|exactamente|especialmente|precisamente|todavia|aun)',
      'realmente no', '(todavia|aun|ya) no', 'no (lo)? creo', 'yo no (lo)? creo', 'ni (de)? (broma|cona|lejos|loco|loca|hablar)',
      'de ninguna (manera|forma)', 'de ningun modo', 'negativo', 'falso', 'incorrecto', 'apenas', 'casi nunca',
      '(claro|obvio|obviamente|por supuesto|desde luego|seguro|seguramente|definitivamente|para nada|ni) que no',
    ],
    unsure: [
      'quizas', 'quiza', 'tal vez', 'a lo mejor', 'puede (que|ser)', 'posiblemente', '(eso)? depende',
      'no (lo)? (se|sabria|sabria decir|sabria decirte|sabemos)', 'yo que se', 'ni idea', 'no tengo (ni)? (idea|ni idea)',
      'no (estoy|estaba|estamos)? (muy|del todo|tan|totalmente|100 %|cien por cien)? (seguro|segura|seguros|seguras)',
      'no (me)? (acuerdo|recuerdo)', 'no lo (recuerdo|tengo claro)', 'no (tengo|estoy) (claro|clara)', 'quien sabe',
      '(es)? (dificil|complicado) (de)? (decir|saber)', '(cincuenta|50) (cincuenta|50)', '50 / 50', 'mitad y mitad',
      '(solo|solamente|unicamente) si', 'si (tuviera|tuviese|fuera|fuese|hubiera|hubiese|pudiera|pudiese|hiciera|costara)',
      'en parte', 'ni si ni no',
    ],
    noParticles: ['no'],
    particleFollowers: [
      'gracias', 'senor', 'senora', 'nunca', 'jamas', 'para', 'en', 'pero', 'y', 'porque', 'pues', 'tampoco', 'nada',
      'ninguno', 'ninguna', 'realmente', 'sinceramente', 'honestamente', 'desafortunadamente', 'lamentablemente',
      'por', 'que', 'ya', 'eh', 'hombre', 'no', 'la', 'de', 'ni', 'yo', 'nosotros', 'claro', 'obvio', 'todavia', 'aun',
    ],
    clauseFinalNegators: ['no'],
    shortYes: [
      `${SUBJECTS}? (lo|la|los|las)? (he|hemos|ha|han) (usado|utilizado|probado|hecho|tenido|visto|intentado|conseguido|logrado)`,
      `${SUBJECTS}? (lo|la|los|las) (uso|usamos|use|utilizo|utilice|probe|probamos|hice|hicimos|hago|tengo|tenemos|tuve|recomendaria|recomiendo|haria|volveria|es|fue|era|estoy|estuve|estaba)`,
      '(yo|nosotros) (si|tambien)',
    ],
    shortNo: [`${SUBJECTS}? no (lo|la)? (es|era|fue|estoy|estaba|soy)`],
    clauseNo: [`${SUBJECTS}? no ${CLITICS} ${CLITICS}? ${VERBS}?`, `${SUBJECTS}? no ${VERBS}`, 'no se (puede|pudo|podia|ha|han|hizo|usa|uso|entiende|entendio|carga|cargo|abre|abrio|guarda|guardo)'],
    answerTail: [
      'si', 'claro', 'realmente', 'tambien', 'ya', 'antes', 'una', 'un', 'dos', 'varias', 'muchas', 'algunas',
      'alguna', 'vez', 'veces', 'todavia', 'aun', 'siempre', 'todos', 'cada', 'bastante', 'mucho', 'a', 'hace',
      'ayer', 'recientemente', 'hoy', 'ahora', 'la', 'el', 'pero', 'y', 'aunque', 'de', 'por', 'sin', 'totalmente',
      'seguro', 'obviamente', 'gracias', 'nunca',
    ],
  },
  open: {
    fillers: [
      'eh', 'em', 'ehm', 'mm', 'mmm', 'hmm', 'hm', 'ah', 'oh', 'ay', 'uf', 'pues', 'bueno', 'este', 'o sea', 'tipo',
      'en plan', 'la verdad', '(la verdad|lo cierto) es que', 'sinceramente', 'honestamente', 'a ver', 'vamos a ver',
      'digamos', 'basicamente', 'realmente', 'literalmente', 'creo (que)?', 'supongo (que)?', 'pienso (que)?',
      '(yo)? diria (que)?', 'en general', 'por favor', 'vale', 'sabes', 'mira', 'oye', 'en fin', 'pues nada',
      'la verdad que', 'simplemente', 'solo', 'no se (,)? pues',
    ],
    nonCommittal: [
      'no (lo)? se', 'yo que se', 'ni idea', 'no tengo (ni)? idea', 'no (estoy)? (muy)? (seguro|segura)', 'nada',
      'nada (mas|en especial|en particular|especial|concreto|destacable|relevante|de nada|que (decir|anadir|comentar|objetar))',
      'no se me ocurre (nada)?', 'no (me)? (acuerdo|recuerdo)', 'no (mucho|realmente)', 'no tengo (quejas|nada que decir)',
      'lo (mismo|de siempre)', 'lo mismo que (antes|siempre|la ultima vez)', '(mas o menos|casi)? igual (que (antes|siempre))?',
      'sin (comentarios|opinion|quejas)', 'ninguna queja', 'me da (igual|lo mismo)', 'lo que sea', 'n / a', 'no aplica',
      'ninguno', 'ninguna', 'no', 'si', 'quizas', 'tal vez', '(eso)? depende', 'mas o menos', 'asi asi', 'todo (bien|correcto|perfecto|ok)',
      '(no esta|nada) mal', 'podria (estar|ser|ir)? (mejor|peor)', 'no me puedo quejar', '(sin|ningun) problemas?', 'nada que decir',
    ],
    verdicts: [
      'bien', 'bueno', 'buena', 'buenos', 'buenas', 'mal', 'malo', 'mala', 'genial', 'guay', 'chulo', 'chevere',
      'bacan', 'chido', 'excelente', 'perfecto', 'perfecta', 'estupendo', 'estupenda', 'fantastico', 'fantastica',
      'increible', 'horrible', 'terrible', 'fatal', 'pesimo', 'pesima', 'encanta', 'encanto', 'gusta', 'gusto',
      'gustan', 'odio', 'mejor', 'peor', 'regular', 'normal', 'aceptable', 'decente', 'correcto', 'correcta',
      'satisfecho', 'satisfecha', 'contento', 'contenta', 'feliz', 'divertido', 'facil', 'sencillo', 'sencilla',
      'simple', 'dificil', 'complicado', 'util', 'utiles', 'practico', 'practica', 'interesante', 'funciona',
      'funciono', 'va', 'iba', 'vale', 'ok', 'okey', 'maravilla', 'maravilloso', 'brutal', 'top', 'lindo', 'bonito',
      'agradable', 'comodo', 'comoda', 'igual', 'mismo', 'nada', 'todo', 'cool',
    ],
    generic: [
      'app', 'aplicacion', 'producto', 'herramienta', 'software', 'programa', 'servicio', 'plataforma', 'sistema',
      'cosa', 'cosas', 'todo', 'algo', 'experiencia', 'general', 'parte', 'poco', 'conjunto',
    ],
  },
  stem: stemSpanish,
};
