/** Every word the page shows, in one place: a table per language (English for now) picked by the interview language. */
const en = {
  welcomeHeading: (campaign: string) => campaign,
  welcomeInvitedBy: (organization: string, name: string | null) =>
    name ? `Hello ${name}, ${organization} invites you to an interview.` : `${organization} invites you to an interview.`,
  welcomeHow: 'An AI interviewer asks the questions, one at a time. Answer by typing or by voice; you can pause at any time.',
  welcomePrivacy: 'This page uses no cookies and no analytics.',
  startInterview: 'Start interview',
  starting: 'Starting…',
  readAloud: 'Read questions aloud',
  consentHeading: 'Before we begin',
  consentText: 'This interview is recorded and your answers are processed to analyse them. Do you agree?',
  consentAgree: 'I agree',
  consentDecline: 'I do not agree',
  declinedHeading: 'No interview without your agreement',
  declinedText: 'You chose not to take part. You can close this page.',
  progress: (current: number, total: number) => `Question ${current} of ${total}`,
  interviewer: 'Interviewer',
  you: 'You',
  yourAnswer: 'Your answer',
  send: 'Send',
  sending: 'Sending…',
  record: 'Record',
  stopRecording: 'Stop recording',
  recording: 'Recording… press “Stop recording” when you have finished.',
  voiceAnswer: 'Voice answer',
  microphoneDenied: 'The microphone is not available. You can type your answer instead.',
  chooseOne: 'Choose one',
  pause: 'Pause',
  resume: 'Resume',
  pausedHeading: 'Interview paused',
  pausedText: 'Take your time. Your answers so far are saved.',
  completedHeading: 'Thank you!',
  completedText: 'Your interview is complete.',
  feedbackHeading: 'How was this interview?',
  feedbackOverall: 'Overall rating',
  ratingLabel: (value: number, max: number) => `${value} out of ${max}`,
  feedbackComments: 'Anything you would like to tell us? (optional)',
  feedbackIssues: 'Did anything not work? (optional)',
  submitFeedback: 'Submit feedback',
  feedbackThanks: 'Thank you for your feedback.',
  errorHeading: 'This interview is not available',
  connectionHeading: 'Connection lost',
  connectionText: 'We could not reach the interview service. Nothing you typed is lost: check your connection and try again.',
  tryAgain: 'Try again',
  endedText: 'This interview has ended.',
  unexpected: 'Something went wrong. Please try again in a moment.',
  /** What a participant is told for an API refusal (the API's own message is for developers). */
  refusals: {
    SESSION_NOT_ACTIVE: 'This interview has ended.',
    INVALID_INVITE_TOKEN: 'This interview link is not valid. Ask the sender for a new invitation.',
    INVITE_EXPIRED: 'This invitation has expired. Ask the sender for a new one if you would still like to take part.',
    INVITE_ALREADY_USED: 'You have already completed this interview. Thank you!',
    CAMPAIGN_NOT_ACTIVE: 'This interview is not open at the moment. Please try again later.',
    SHARE_LINK_CLOSED: 'This interview has all the participants it needs. Thank you for your interest.',
    INSUFFICIENT_CREDITS: 'This interview cannot take place right now. Please let the sender know.',
    RECORDING_NOT_CONSENTED: 'Recordings need your consent. Please type your answer instead.',
    PAYLOAD_TOO_LARGE: 'That recording is too long. Please record a shorter answer or type it.',
  } as Record<string, string>,
};

export type Messages = typeof en;

const TABLES: Record<string, Messages> = { en };

export function messagesFor(language: string): Messages {
  return TABLES[language.toLowerCase()] ?? TABLES[language.toLowerCase().split('-')[0]!] ?? en;
}
