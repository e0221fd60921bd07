import type { TResolvedTurnTaking } from './schemas/turn-taking.js';

/**
 * What the server tells the interview page (`/embed`, `/interview/{token}`) in its
 * `<script type="application/json" id="interview-config">`: everything the page needs before its
 * first API call, so it never asks for it over the network.
 */
export interface InterviewPageConfig {
  /** `embed`: inside the SDK's iframe, events posted to `parentOrigin`; `page`: the full page of the invite link. */
  mode: 'embed' | 'page';
  /** The invite token (the participant's credential); null when the page opens on an error. */
  token: string | null;
  /** Exact origin the embed posts its events to; null: events are posted nowhere. */
  parentOrigin: string | null;
  /** Interview language (BCP 47), as the session will have it. */
  language: string;
  /** Preferred speech synthesis voice: the SDK's `voice`, else the campaign's or the script's. */
  voice: string | null;
  /** Checked hex colours (SDK theme, else the organization's brand colour as primary). */
  theme: { primary: string | null; background: string | null; text: string | null };
  /** What participants see the campaign called: its participant title, else its name. */
  campaignName: string | null;
  /** A "Preview as participant" interview: the page says it is not recorded in results and costs no credits. */
  preview: boolean;
  /** Test mode: the invite is of a test world; the page says it is a test. */
  testMode: boolean;
  organizationName: string | null;
  participantName: string | null;
  /** How the page takes turns in voice mode: the campaign's `settings.turnTaking` over the defaults. */
  turnTaking: TResolvedTurnTaking;
  /** The voice mode's own files, by their content-hashed paths (set as the page is rendered). */
  voiceAssets?: { captureWorklet: string };
  /** The interview cannot be taken: the screen shows this, and the embed raises `error`. */
  closed: { code: string; message: string } | null;
}

/** The participant-facing event messages (design.md "Embed"). */
export const EMBED_MESSAGE_SOURCE = 'interview-embed';
