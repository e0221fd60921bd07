import { ENGLISH_LEXICON } from '../answer-parsing/en.js';
import type { ProbeCue, ProbeLanguage } from './language.js';
import type { WordToken } from './words.js';

const cue = (reason: ProbeCue['reason'], patterns: string[], weight = 2, extra: Partial<ProbeCue> = {}): ProbeCue[] =>
  patterns.map((pattern) => ({ pattern, reason, weight, ...extra }));

const NEGATIONS = "not never don't doesn't didn't won't wouldn't can't cannot couldn't isn't wasn't aren't weren't haven't hasn't nobody nothing's";

const CUES: ProbeCue[] = [
  ...cue('problem', NEGATIONS.split(' ')),
  ...cue('problem', [
    'fail*', 'crash*', 'broke', 'broken', 'break*', 'error*', 'bug', 'bugs', 'buggy', 'wrong', 'stuck', 'freez*', 'froze',
    'spam', 'problem*', 'issue*', 'difficult', 'hard to', 'confusing', 'keep*|kept *ing', 'drop*', 'takes|took ages|forever',
    'no proper|real|way', 'missing', 'glitch*', 'lag*', 'weird*', 'too _', 'wouldn\'t|won\'t load',
  ]),
  ...cue('problem', ['slow', 'expensive', 'only', 'until'], 1),
  ...cue('event', ['gave|give|giving up', 'quit', 'stopped'], 3, { question: 'What made you stop?', personal: true }),
  ...cue('event', ['almost|nearly cancel*'], 3, { question: 'What made you want to cancel?', personal: true }),
  ...cue('event', [
    'last week|month|year|time|night|summer|winter', 'yesterday', 'suddenly', 'happened', 'lost', 'blocked', 'cancel*',
    'closed', 'got _ed', 'got blocked|stuck|lost|charged|locked', 'had to', 'ended', 'without telling|warning|asking',
    'during', 'tried',
  ]),
  ...cue('event', ['charged', 'switched', 'moved', 'then'], 1),
  ...cue('workaround', ['instead'], 2, { question: 'What made you do it that way instead?' }),
  ...cue('workaround', ['by hand', 'manually'], 3, { question: 'What would it take so you did not have to do that by hand?' }),
  ...cue('workaround', [
    'spreadsheet*', 'whiteboard', 'excel', 'paper', 'print*', 'workaround*', 'end|ended up', 'just keep|use|copy|write|call|do',
    'take a photo', 'myself', 'post-it*', 'notebook', 'scribble*',
  ]),
  ...cue('workaround', ['write*', 'wrote', 'copy', 'copied', 'photo*', 'note*', 'reminder*'], 1),
  ...cue('feeling', ['love*', 'loving'], 2, { question: 'What is it you love about it?', personal: true }),
  ...cue('feeling', ['hate*'], 2, { question: 'What is it you hate about it?', personal: true }),
  ...cue('feeling', [
    'betray*', 'frustrat*', 'stress*', 'annoy*', 'angry', 'upset', 'worried', 'worry', 'nervous', 'scared', 'afraid',
    'anxious', 'relie*', 'happy', 'glad', 'excit*', 'disappoint*', 'embarrass*', 'overwhelm*', 'furious', 'fed up',
    'delight*', 'thrill*', 'sad', 'can\'t stand', 'felt', 'mad', 
    'irritat*', 'panic*', 'shock*', 'surpris*', 'proud', 'ashamed', 'lonely', 'confus*', 'hopeless', 'pain',
  ], 3),
  // Verdicts: a judgement more than a feeling, asked about only when nothing stronger was said.
  ...cue('feeling', ['awful', 'terrible', 'horrible', 'amazing', 'brilliant', 'fantastic']),
  ...cue('feeling', ['feel*', 'honestly', 'so', 'really', 'pretty', 'kind of'], 1),
  ...cue('comparison', ['than', 'compared|comparing|comparison', 'unlike', 'twice as', 'as _ as', 'the same as', 'versus', 'vs']),
  ...cue('comparison', ['used to'], 2, { question: 'What made you change?' }),
  ...cue('comparison', [
    'better', 'worse', 'cheaper', 'slower', 'faster', 'easier', 'harder', 'noisier', 'more', 'less', 'before',
    'previous', 'old', 'former', 'much', 'way', 'whereas',
  ], 1),
  ...cue('number', ['double', 'twice', 'triple', 'half'], 2),
  ...cue('number', ['about', 'around', 'roughly', 'almost', 'nearly', 'only', 'over', 'under', 'most of', 'took', 'takes', 'maybe', 'ish'], 1),
  // Broader vocabulary for each reason (general synonyms, not phrases of any labelled answer).
  ...cue('problem', [
    'hassle', 'clunky', 'laggy', 'unreliable', 'impossible', 'nightmare', 'mess', 'messy', 'awkward', 'complicated', 'tricky',
    'struggl*', 'fiddly', 'useless', 'disappear*', 'vanish*', 'delay*', 'overcharg*', 'charged twice', 'locked out', 'outage',
    'timed out', 'time out', 'crap', 'rubbish', 'painful', 'glitchy', 'bugged', 'unusable',
  ]),
  ...cue('problem', ['late', 'again', 'every time', 'always', 'constantly'], 1),
  ...cue('event', ['turned out', 'found out', 'realised|realized', 'one day', 'the other day', 'at one point', 'back in', 'rejected', 'declined', 'deleted', 'wiped', 'went down', 'refused', 'sent back', 'returned', 'called', 'phoned', 'complained']),
  ...cue('event', ['refund*', 'after', 'finally'], 1),
  ...cue('workaround', ['hack', 'trick', 'my own', 'ask a colleague|friend|someone', 'keep a list', 'screenshot*', 'email myself', 'set a|an reminder|alarm', 'double-check*', 'google sheet*', 'notes app', 'sticky note*', 'on paper', 'work around']),
  ...cue('workaround', ['whatsapp', 'text', 'list', 'calendar', 'separate'], 1),
  ...cue('feeling', [
    'scary', 'hopeful', 'grateful', 'thankful', 'bored', 'tired', 'exhausted', 'sick of', 'enjoy*', 'impressed', 'skeptical',
    'sceptical', 'uneasy', 'uncomfortable', 'comfortable', 'disgust*', 'livid', 'gutted', 'pleased', 'satisfied', 'unhappy',
    'miserable', 'resent*', 'distrust',
  ], 3),
  ...cue('comparison', ['similar to', 'nothing like', 'not as _ as', 'not nearly as', 'by comparison', 'in contrast', 'the other one']),
  ...cue('number', ['at least', 'less|more|fewer than', 'a third|quarter', 'per cent|percent']),
];

/** Subject pronouns: the participant speaking of themselves. `we're`/`we'll` are left out: folded they read "were"/"well". */
const FIRST_PERSON = new Set(['i', 'im', 'ive', 'id', 'ill', 'we', 'weve', 'wed']);

const SHIFTS: Record<string, string> = {
  i: 'you', "i'm": "you're", "i've": "you've", "i'd": "you'd", "i'll": "you'll", me: 'you', my: 'your', mine: 'yours',
  myself: 'yourself', we: 'you', "we're": "you're", "we've": "you've", "we'd": "you'd", "we'll": "you'll", our: 'your',
  us: 'you', ours: 'yours', ourselves: 'yourselves',
};

/** English persons: pronouns shift; the verb only where "I" had its own form ("I am" → "you are", "I was" → "you were"). */
function shift(words: readonly WordToken[]): (string | undefined)[] {
  return words.map((word, index) => {
    const key = word.text.toLowerCase().replace(/’/g, "'");
    const previous = words[index - 1]?.norm;
    if (previous === 'i' && key === 'am') return 'are';
    if (previous === 'i' && key === 'was') return 'were';
    if (previous === 'i' && key === "wasn't") return "weren't";
    if (key === 'i' && words[index + 1]?.norm === 'was') return 'you';
    return SHIFTS[key];
  });
}

export const ENGLISH_PROBES: ProbeLanguage = {
  code: 'en',
  splitElision: false,
  cues: CUES,
  clauseOpeners: ['but', 'because', 'cause', 'so', 'until', 'which', 'whereas', 'while', 'although', 'though'],
  coordinators: ['and', 'or'],
  subjectStarters: [
    'i', 'we', 'you', 'he', 'she', 'it', 'they', "it's", "there's", 'there', 'my', 'our', 'your', 'his', 'her', 'their',
    'the', 'this', 'that', 'these', 'those', 'everything', 'nothing', 'nobody', 'someone', 'somebody', 'everyone',
    'people', 'a', 'an', 'she', 'he',
  ],
  frontedAdverbs: ['last', 'now', 'then', 'yesterday', 'today', 'sometimes', 'usually', 'often', 'recently', 'lately'],
  edgeFillers: [
    'um', 'uh', 'er', 'erm', 'hmm', 'well', 'like', 'so', 'and', 'but', 'yeah', 'yes', 'oh', 'okay', 'ok', 'honestly',
    'actually', 'then', 'to be honest', 'i mean', 'you know', 'i think', 'i guess', 'basically', 'mostly', 'which is', 'really',
  ],
  numberWords: new Set([
    ...Object.keys(ENGLISH_LEXICON.numbers.units),
    ...Object.keys(ENGLISH_LEXICON.numbers.tens),
    ...Object.keys(ENGLISH_LEXICON.numbers.counts),
    'hundred', 'hundreds', 'thousand', 'thousands', 'dozen', 'dozens', 'million',
  ].filter((word) => word !== 'one')),
  quantityQuestions: ['how much|many|long', 'what percentage|share|number', 'how often'],
  finished: ['nothing else', 'that covers it', "that's all|it", "that's about it", 'nothing to add', 'nothing more'],
  presupposesDifficulty: [
    'hardest', 'difficult*', 'difficulty', 'problem*', 'went|go|goes|going wrong', 'frustrat*', 'annoy*', 'worst',
    'struggl*', 'challeng*', 'pain', 'issue*', 'hard', 'trouble',
  ],
  firstPerson: FIRST_PERSON,
  shift,
  lowercaseFirst: (word) => !/\p{Lu}.*\p{Lu}/u.test(word.text) && word.text !== 'I',
  reported: (clause) => `You said ${clause}.`,
  quoted: (span) => `You mentioned “${span}”.`,
  questions: {
    problem: ['What do you do when that happens?', 'How does that affect you?'],
    event: ['What happened then?', 'What led to that?'],
    workaround: ['How did you end up doing it that way?', 'What does doing it that way cost you?'],
    feeling: ['What makes you feel that way?', 'Where does that feeling come from?'],
    comparison: ['What makes the difference for you?', 'How does that difference show up day to day?'],
    number: ['What is behind that number?', 'How did you arrive at that figure?'],
  },
  thirdPartyQuestions: {
    workaround: ['How did that way of doing it come about?', 'What does doing it that way cost?'],
    feeling: ['Where does that feeling come from?', 'What is behind that feeling?'],
  },
};
