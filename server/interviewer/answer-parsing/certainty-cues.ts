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
    'maybe', 'perhaps', 'probably', 'possibly', 'presumably', 'likely', 'i guess', 'guess', 'i suppose', 'i think', 'i believe',
    "(i'm|i am) not (really|quite|totally|entirely|too|so|that|100 %)? (sure|certain)", 'not (sure|certain)', 'kind of', 'sort of',
    'kinda', 'sorta', 'roughly', 'around', 'approximately', 'more or less', 'ish', 'or so', 'something like', 'somewhere around',
    "let's say", 'let me think', 'i reckon', 'reckon', 'might be', 'could be', 'if i (had|have) to (say|pick|choose|guess)',
    'hard to say', 'i dunno', 'dunno', "(i)? (don't|do not) know", 'more like', 'leaning', 'leaning towards', 'hmm', 'um', 'uh', 'er', 'erm',
  ],
  nl: [
    'misschien', 'waarschijnlijk', 'wellicht', 'mogelijk', 'denk ik', 'ik denk', 'geloof ik', 'ik geloof', 'vermoedelijk',
    'ongeveer', 'zo ongeveer', 'rond', 'rondom', 'zoiets', 'of zo', 'een beetje', 'soort van', 'min of meer', 'zeg maar',
    'laten we zeggen', 'ik weet (het)? niet (zo)? zeker', 'niet zeker', 'weet niet', 'ik gok', 'gok ik', 'eerder', 'neig naar',
    'ik neig naar', 'zou kunnen', 'kan zijn', 'lijkt me', 'hmm', 'eh', 'uh', 'ehm',
  ],
  de: [
    'vielleicht', 'wahrscheinlich', 'wohl', 'vermutlich', 'möglicherweise', 'eventuell', 'ich glaube', 'glaube ich', 'glaub ich',
    'ich denke', 'denke ich', 'ich schätze', 'schätze ich', 'ungefähr', 'etwa', 'circa', 'so um', 'so etwa', 'oder so',
    'sozusagen', 'mehr oder weniger', 'sagen wir', 'eher', 'nicht (ganz)? sicher', 'weiß nicht', 'keine ahnung', 'irgendwie',
    'könnte sein', 'kann sein', 'tendiere zu', 'ich tendiere', 'hmm', 'äh', 'ähm', 'öh',
  ],
  fr: [
    'peut-être', 'peut etre', 'probablement', 'sans doute', 'possiblement', 'je pense', 'je crois', 'je suppose', 'j imagine',
    'environ', 'à peu près', 'plus ou moins', 'genre', 'disons', 'on va dire', 'ou quelque chose', 'quelque chose comme',
    'pas (trop|vraiment|tout à fait)? sûr', 'sais pas', 'je (ne)? sais pas', 'plutôt', 'ça doit être', 'il me semble',
    'vers', 'hmm', 'euh', 'bof',
  ],
  es: [
    'quizás', 'quizá', 'tal vez', 'a lo mejor', 'probablemente', 'posiblemente', 'seguramente', 'creo', 'supongo', 'diría',
    'más o menos', 'alrededor de', 'aproximadamente', 'unos', 'digamos', 'o algo así', 'algo así como', 'no (estoy)? (muy)? seguro',
    'no (estoy)? (muy)? segura', 'no sé', 'puede ser', 'podría ser', 'me parece', 'hmm', 'eh', 'em', 'pues',
  ],
};
