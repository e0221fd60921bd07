import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs } from '../helpers/factories.js';
import { completedTextInterview, TEXT_ANSWERS } from '../helpers/results.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * `redact_kinds` over HTTP: names and postal addresses redacted when asked for, beside the spec's
 * `redact_pii`, which keeps meaning its four markers and nothing more.
 */

const NAME = 'Sarah Jenkins';
const ADDRESS = '221B Baker Street, London NW1 6XE';
const EMAIL = 'ada.lovelace@example.com';
const PHONE = '+44 20 7946 0958';
const ANSWER = `Honestly the onboarding emails had broken links. My colleague ${NAME} sent the forms to ${ADDRESS} on 05.12.2024, and you can reach me at ${EMAIL} or ${PHONE}.`;

let t: TestApp;
let api: Api;
let sessionId: string;
let campaignId: string;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  const tenant = await t.createTenant();
  api = apiAs(t.http, tenant);
  const interview = await completedTextInterview(t, api, [ANSWER, ...TEXT_ANSWERS.slice(1)]);
  sessionId = interview.sessionId;
  campaignId = interview.campaign.id;
});

afterAll(async () => {
  await t?.close();
});

const answerOf = (body: { utterances: { speaker: string; text: string }[] }) => body.utterances.find((utterance) => utterance.speaker === 'participant')!.text;

describe('redact_kinds on the transcript', () => {
  it('JSON with redact_kinds=name,address: the name and the address become their markers; the email, the phone number and the date stay', async () => {
    const { body } = await api.get(`/v1/sessions/${sessionId}/transcript?redact_kinds=name,address`).expect(200);
    expect(answerOf(body)).toBe(ANSWER.replace(NAME, '[NAME REDACTED]').replace(ADDRESS, '[ADDRESS REDACTED]'));
  });

  it('text with redact_kinds listing all six kinds (blanks and upper case allowed): every item is its marker, the date is not a phone number', async () => {
    const response = await api
      .get(`/v1/sessions/${sessionId}/transcript?format=text&redact_kinds=${encodeURIComponent('name, ADDRESS,email,phone,card,ssn')}`)
      .expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    for (const value of [NAME, 'Jenkins', ADDRESS, 'NW1 6XE', EMAIL, '7946']) expect(response.text).not.toContain(value);
    expect(response.text).toContain(
      'My colleague [NAME REDACTED] sent the forms to [ADDRESS REDACTED] on 05.12.2024, and you can reach me at [EMAIL REDACTED] or [PHONE REDACTED].',
    );
  });

  it('redact_pii=true alone is the four spec markers: the name and the address stay as they were', async () => {
    const { body } = await api.get(`/v1/sessions/${sessionId}/transcript?redact_pii=true`).expect(200);
    expect(answerOf(body)).toBe(ANSWER.replace(EMAIL, '[EMAIL REDACTED]').replace(PHONE, '[PHONE REDACTED]'));
    expect(JSON.stringify(body)).not.toMatch(/NAME REDACTED|ADDRESS REDACTED/);
  });

  it('redact_pii=true with redact_kinds=name redacts the union: the four spec kinds and names', async () => {
    const { body } = await api.get(`/v1/sessions/${sessionId}/transcript?redact_pii=true&redact_kinds=name`).expect(200);
    expect(answerOf(body)).toBe(ANSWER.replace(NAME, '[NAME REDACTED]').replace(EMAIL, '[EMAIL REDACTED]').replace(PHONE, '[PHONE REDACTED]'));
  });

  it('an unknown kind answers 400 INVALID_REQUEST naming redact_kinds (a bad query parameter), on the transcript, the PDF, the insights and the exports', async () => {
    const response = await api.get(`/v1/sessions/${sessionId}/transcript?redact_kinds=name,iban`).expect(400);
    expect(response.body.error.code).toBe('INVALID_REQUEST');
    expect(response.body.error.details.fields).toEqual([{ path: 'redact_kinds', message: expect.stringContaining('unknown: iban') }]);
    for (const path of [`/v1/sessions/${sessionId}/pdf`, `/v1/sessions/${sessionId}/insights`, `/api/campaigns/${campaignId}/transcripts`]) {
      const refused = await api.get(`${path}?redact_kinds=names`).expect(400);
      expect(
        refused.body.error.details.fields.map((field: { path: string }) => field.path),
        path,
      ).toEqual(['redact_kinds']);
    }
  });
});

describe('redact_kinds elsewhere', () => {
  it('the campaign export with redact_kinds=name,address holds neither the name nor the address, and says it is redacted', async () => {
    const response = await api.get(`/api/campaigns/${campaignId}/transcripts?redact_kinds=name,address`).expect(200);
    const body = JSON.parse(response.text);
    expect(body.redacted).toBe(true);
    expect(response.text).not.toContain('Jenkins');
    expect(response.text).not.toContain('Baker Street');
    expect(response.text).toContain('[NAME REDACTED]');
    expect(response.text).toContain(EMAIL);
  });

  it('the insights with redact_kinds=name: no quote or summary keeps the name', async () => {
    expect(JSON.stringify((await api.get(`/v1/sessions/${sessionId}/insights`).expect(200)).body)).toContain('Jenkins');
    const { body } = await api.get(`/v1/sessions/${sessionId}/insights?redact_kinds=name`).expect(200);
    expect(JSON.stringify(body)).not.toContain('Jenkins');
  });
});
