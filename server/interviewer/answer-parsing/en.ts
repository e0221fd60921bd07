import type { AnswerLexicon } from './lexicon.js';

const SUBJECTS = '(i|we|they|he|she|you|it|that)';
const AUXILIARIES = '(do|does|did|have|has|had|will|would|can|could|should|might|may|am|is|was|are|were)';
const NEGATIVE_AUXILIARIES =
  "(don't|doesn't|didn't|haven't|hasn't|hadn't|won't|wouldn't|can't|cannot|couldn't|shouldn't|mightn't)";
const COPULA_NEGATIVES = "(isn't|wasn't|aren't|weren't|ain't)";

/** Light English stemmer: enough for "reports"/"reporting"/"report" and "chatting"/"chat", no more. */
function stemEnglish(word: string): string {
  let stem = word;
  if (stem.length > 4 && stem.endsWith('ies')) stem = `${stem.slice(0, -3)}y`;
  else if (stem.length > 3 && stem.endsWith('s') && !stem.endsWith('ss') && !stem.endsWith('us')) stem = stem.slice(0, -1);
  if (stem.length > 5 && stem.endsWith('ing')) stem = undouble(stem.slice(0, -3));
  else if (stem.length > 4 && stem.endsWith('ed')) stem = undouble(stem.slice(0, -2));
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

function undouble(stem: string): string {
  return /([bdgmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

/** English: the reference lexicon; other languages copy its shape. */
export const ENGLISH_LEXICON: AnswerLexicon = {
  apostrophes: 'drop',
  numbers: {
    units: {
      zero: 0, nil: 0, nought: 0, naught: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8,
      nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
      seventeen: 17, eighteen: 18, nineteen: 19,
    },
    tens: { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 },
    hundred: ['hundred'],
    fractionPhrases: ['and (a|one)? (half|quarter)', 'and three quarters', 'point'],
    pronounNumbers: ['one'],
    pronounDeterminers: [
      'the', 'this', 'that', 'each', 'every', 'no', 'any', 'another', 'which', 'what', 'some', 'other', 'only',
      'same', 'next', 'last', 'first', 'second', 'third', 'right', 'wrong', 'new', 'old',
    ],
    ordinals: {
      first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
      eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
      eighteenth: 18, nineteenth: 19, twentieth: 20,
    },
    lastWords: ['last', 'final'],
    counts: { once: 1, twice: 2, thrice: 3 },
  },
  articles: ['a', 'an'],
  outOf: ['out of', 'outta'],
  outOfAfterNumber: ['of'],
  ratingUnits: ['star', 'stars', 'point', 'points', 'pts', 'ish'],
  percentWords: ['%', 'percent', 'per cent', 'pct'],
  bounds: {
    above: ['(more|higher|greater|better|bigger|older|over|above) than', 'over', 'above', 'beyond', 'upwards of'],
    below: ['(less|lower|fewer|worse|smaller|younger|under|below) than', 'under', 'below'],
    atLeast: ['at least', 'no less than', 'minimum', 'min'],
    atMost: ['at most', 'at best', 'up to', 'no more than', 'maximum', 'max', 'tops'],
    orMore: ['+', '(or|and) (more|older|over|above|up|higher|greater|plus)', 'at (the)? least', 'minimum', 'min'],
    orLess: ['(or|and) (less|fewer|younger|under|below|lower)', 'at (the)? most', 'at best', 'max', 'maximum', 'tops'],
  },
  rangeJoiners: ['-', 'to', 'through', 'thru', 'till', 'until'],
  rangeOpeners: ['between', 'from'],
  rangeAnd: ['and', 'to'],
  correctionPhrases: [
    'actually', 'no wait', 'wait', 'i mean', 'make (it|that)', 'scratch that', 'on second thought', 'or rather',
    'no sorry', 'sorry',
  ],
  negators: [
    'not', 'never', 'no', 'nor', 'neither', 'cannot', "don't", "doesn't", "didn't", "isn't", "wasn't", "aren't",
    "weren't", "haven't", "hasn't", "hadn't", "won't", "wouldn't", "can't", "couldn't", "shouldn't", "ain't",
  ],
  negationTransparent: [
    'a', 'an', 'the', 'even', 'really', 'quite', 'exactly', 'just', 'say', 'give', 'giving', 'it', 'rate', 'be',
    'call', 'go', 'with', 'so', 'too', 'very', 'necessarily', 'particularly', 'entirely', 'totally', 'always',
    'would', 'i', 'me', 'by', 'via', 'through', 'using', 'use', 'pick', 'choose', 'want',
  ],
  exclusions: [
    '(anything|everything|all) but', 'instead of', 'apart from', 'besides', 'except (for)?', '(other|rather) than',
    "(hate|hated|dislike|avoid|can't stand)", 'never use',
  ],
  stopwords: [
    // articles, pronouns and their contractions (apostrophes are dropped: "i'm" is "im")
    'a', 'an', 'the', 'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'you', 'your', 'yours', 'he',
    'him', 'his', 'she', 'her', 'hers', 'it', 'its', 'itself', 'they', 'them', 'their', 'theirs', 'this', 'that',
    'these', 'those', 'who', 'whom', 'whose', 'which', 'what', 'one', 'ones', "i'm", "i've", "i'd", "i'll",
    "you're", "we're", "we've", "we'd", "they're", "they've", "it's", "that's", "there's", "what's", "he's",
    "she's", "let's", "it'll", "that'd",
    // auxiliaries
    'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'do', 'does', 'did', 'have', 'has', 'had', 'having',
    'will', 'would', 'shall', 'should', 'can', 'could', 'may', 'might', 'must', 'get', 'got', 'gets',
    // prepositions and conjunctions
    'of', 'in', 'on', 'at', 'to', 'for', 'with', 'by', 'from', 'about', 'as', 'into', 'like', 'through', 'over',
    'under', 'after', 'before', 'between', 'out', 'up', 'down', 'off', 'than', 'via', 'per', 'around', 'without',
    'within', 'during', 'against', 'toward', 'towards', 'upon', 'across', 'and', 'or', 'but', 'nor', 'so',
    'because', 'cause', 'cuz', 'since', 'if', 'though', 'although', 'while', 'when', 'where', 'then', 'yet',
    // determiners, quantifiers, negators and grammatical adverbs
    'some', 'any', 'all', 'both', 'each', 'every', 'no', 'none', 'more', 'most', 'less', 'least', 'few', 'fewer',
    'much', 'many', 'other', 'another', 'such', 'own', 'not', 'never', 'there', 'here', 'too', 'also', 'very',
    'just', 'only', 'even', 'still', 'again', 'ever', 'already', 'now', 'how', 'why', 'cannot', "don't", "doesn't",
    "didn't", "isn't", "wasn't", "aren't", "weren't", "haven't", "hasn't", "hadn't", "won't", "wouldn't", "can't",
    "couldn't", "shouldn't", "ain't",
  ],
  discourseWords: [
    'yes', 'yeah', 'yep', 'yup', 'nope', 'nah', 'ok', 'okay', 'well', 'um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm',
    'hm', 'mm', 'oh', 'ah', 'maybe', 'perhaps', 'probably', 'possibly', 'definitely', 'certainly', 'absolutely',
    'surely', 'honestly', 'really', 'actually', 'basically', 'literally', 'overall', 'generally', 'mostly',
    'usually', 'sometimes', 'quite', 'pretty', 'rather', 'fairly', 'somewhat', 'roughly', 'approximately', 'about',
    'nearly', 'almost', 'easily', 'solidly', 'firmly', 'tops', 'max', 'ish', 'guess', 'think', 'say', 'said',
    'give', 'gave', 'giving', 'rate', 'rated', 'rating', 'score', 'call', 'go', 'going', 'goes', 'put', 'pick',
    'choose', 'suppose', 'reckon', 'mean', 'know', 'feel', 'sure', 'though', 'anyway', 'anyways',
    'currently', 'today', 'lol', 'haha', 'thanks', 'please', 'tbh', 'imo', 'personally', 'let', 'see', 'somewhere',
    'either', 'way', 'kinda', 'sorta', 'wait', 'sorry', 'right', 'plus', 'deserves', 'deserve', 'worth', 'stars',
    'star', 'otherwise', 'instead', 'anyhow',
  ],
  referenceWords: ['option', 'number', 'choice', 'answer', 'letter', 'item', 'alternative', 'no'],
  ordinalNouns: ['one', 'ones', 'option', 'options', 'choice', 'answer', 'item', 'alternative'],
  meaningShifters: [
    'not', 'no', 'non', 'never', 'less', 'more', 'than', 'fewer', 'under', 'over', 'above', 'below', 'without',
    'except', 'least', 'most', 'neither', 'nor', 'only',
  ],
  intensifiers: [
    'very', 'extremely', 'really', 'totally', 'completely', 'highly', 'super', 'absolutely', 'quite', 'fairly',
    'somewhat', 'pretty', 'slightly', 'so', 'most', 'least', 'incredibly', 'entirely', 'strongly', 'rather',
  ],
  downtoners: [
    'pretty', 'fairly', 'somewhat', 'quite', 'rather', 'kind of', 'sort of', 'kinda', 'sorta', 'slightly', 'a bit',
    'a little', 'moderately', 'reasonably', 'mostly', 'almost', 'nearly', 'not quite', 'borderline',
  ],
  polarity: {
    yes: [
      'yes', 'yeah', 'yea', 'yeh', 'yep', 'yup', 'ya', 'yah', 'yess', 'aye', 'sure', 'surely', 'definitely',
      'absolutely', 'certainly', 'totally', 'obviously', 'correct', 'indeed', 'affirmative', 'true', 'of course', 'for sure',
      'uh huh', 'uh-huh', 'mhm', 'mm hmm', 'mm-hmm', 'mmhmm', "that's (right|correct|true|it)", 'that is (right|correct|true)',
      "you're right", 'you bet', "(i|i'd|i would)? (think|believe|guess|suppose|say|reckon) so", 'why not',
      'no doubt', '(without|with no) a? doubt', 'no question', 'by all means',
    ],
    no: [
      'nope', 'nah', 'naw', 'nay', 'never', 'no way', 'not really', 'not at all', 'not yet', 'not anymore',
      'not any more', 'no longer', "not that i (know|remember|recall|can remember|can recall|noticed|can tell)",
      'not as far as i (know|remember|can tell)', 'no (thanks|thank you)', 'no chance', 'not a chance',
      'not (exactly|particularly|especially|much|quite|so much|once|ever|one bit)', 'negative', 'none', 'nothing',
      'nada', '(absolutely|definitely|certainly|surely|totally|obviously|sure|of course|hell) not', 'incorrect',
      "(i)? (don't|do not) (really)? (think|believe)",
      'false', 'hardly',
    ],
    unsure: [
      'maybe', 'perhaps', 'possibly', 'unsure', 'uncertain', '(it)? depends',
      "(i'm|i am)? not (really|quite|totally|entirely|too|so|that|100 %)? (sure|certain)",
      "(i)? (don't|do not) (really)? (know|remember|recall)", "(i)? (can't|cannot|couldn't) (really)? (remember|recall|say|tell)",
      '(no|not a) (idea|clue)', 'dunno', 'idk', '(hard|difficult|tough) to (say|tell)', 'who knows',
      '(fifty|50) (fifty|50)', '50 / 50', 'not (too|that) sure',
    ],
    noParticles: ['no'],
    particleFollowers: [
      'i', 'we', 'it', 'they', 'he', 'she', 'you', 'that', 'this', 'the', 'not', 'never', 'thanks', 'thank',
      'sorry', 'unfortunately', 'sadly', 'actually', 'honestly', 'really', 'definitely', 'absolutely', 'certainly',
      "i'm", "i've", "i'd", "it's", "we're", "they're", 'but', 'and', 'because', 'nope', 'sir', 'man',
    ],
    clauseFinalNegators: ['not'],
    shortYes: [`${SUBJECTS} ${AUXILIARIES}`, "(i've|we've|i'd|we'd|i'll|we'll)", 'i (guess|suppose|think|believe)'],
    shortNo: [
      `${SUBJECTS}? ${COPULA_NEGATIVES}`,
      "(i'm|it's|that's|they're|we're|he's|she's) not",
      `${SUBJECTS} (am|is|was|are|were) not`,
    ],
    clauseNo: [`${SUBJECTS}? ${NEGATIVE_AUXILIARIES}`, `${SUBJECTS} ${AUXILIARIES} not`],
    answerTail: [
      'yes', 'yeah', 'actually', 'really', 'though', 'too', 'also', 'already', 'before', 'once', 'twice', 'yet',
      'again', 'honestly', 'definitely', 'sometimes', 'indeed', 'lol', 'thanks', 'a', 'lots', 'many', 'several',
      'every', 'all', 'always', 'often', 'regularly', 'recently', 'now', 'today', 'daily', 'weekly', 'of', 'course',
      'for', 'sure', 'absolutely', 'certainly', 'totally', 'still', 'but', 'and', 'so',
    ],
  },
  open: {
    fillers: [
      'um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'hm', 'mm', 'mmm', 'ah', 'oh', 'well', 'like', 'so', 'basically',
      'actually', 'honestly', 'literally', 'just', 'really', 'i mean', 'you know', 'i guess', 'i think', 'i suppose',
      'to be honest', 'tbh', 'kind of', 'sort of', 'kinda', 'sorta', 'let me think', "let's see", 'please',
      'overall', 'anyway', 'anyways', 'i would say', "i'd say", 'in general', 'generally',
    ],
    nonCommittal: [
      "(i)? (don't|do not) (really)? know", 'idk', 'dunno', "(i'm|i am)? not (really|quite|too)? sure", 'no idea',
      'no clue', 'nothing', 'nothing (really|much|special|in particular|specific|else|at all)',
      'nothing (comes|came|springs) to mind', 'nothing (stands|stood) out', "(i)? (can't|cannot) think of anything",
      "(i)? (can't|cannot|don't) (really)? (remember|recall)", 'not (really|much|a lot)', 'not much to (say|add)',
      'nothing to (add|say)', 'same as (before|last time|usual|always|ever)', '(pretty much|about|all)? the same',
      '(hard|difficult) to say', 'no comment', 'no complaints', 'no opinion', 'whatever', 'n / a', 'na', 'none',
      'no', 'nope', 'yes', 'yeah', 'yep', 'maybe', 'perhaps', '(it)? depends', 'so so', 'so-so', 'meh',
      'all good', 'not bad', 'could be (better|worse)', "can't complain", 'no (problems|issues)', 'not sure',
    ],
    verdicts: [
      'good', 'fine', 'ok', 'okay', 'alright', 'allright', 'nice', 'great', 'cool', 'decent', 'awesome',
      'excellent', 'amazing', 'perfect', 'bad', 'terrible', 'awful', 'horrible', 'love', 'loved', 'hate', 'hated',
      'better', 'worse', 'best', 'worst', 'same', 'whatever', 'meh', 'satisfied', 'happy', 'fun', 'easy', 'simple',
      'hard', 'difficult', 'useful', 'helpful', 'interesting', 'works', 'worked', 'work', 'working',
    ],
    generic: [
      'app', 'application', 'product', 'tool', 'software', 'service', 'platform', 'system', 'thing', 'things',
      'stuff', 'everything', 'anything', 'something', 'experience', 'whole', 'lot', 'bit', 'part', 'pretty',
    ],
  },
  stem: stemEnglish,
};
