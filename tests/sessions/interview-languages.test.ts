import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, apiAs, createCampaign, createInvite, createPublishedScript, createShareLink } from '../helpers/factories.js';
import { participantAs } from '../helpers/interviews.js';
import { runJobsOnce } from '../helpers/jobs.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * An interview held in the participant's language: chosen from the invite over the campaign
 * and the script, asked, followed up and closed in that language, and its answers read in it.
 */
let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_PARTICIPANT_PER_MINUTE: '100000', RATE_LIMIT_PARTICIPANT_CREDENTIAL_PER_MINUTE: '100000' });
  api = apiAs(t.http, await t.createTenant());
});
afterAll(() => t?.close());

const DUTCH_QUESTIONS = [
  { id: 'ervaring', text: 'Hoe was je eerste week met het product?', type: 'open' },
  { id: 'gemak', text: 'Hoe makkelijk was de installatie?', type: 'rating', scale: { min: 1, max: 5 } },
  { id: 'aanraden', text: 'Zou je het een collega aanraden?', type: 'yes_no' },
  { id: 'kanaal', text: 'Welk supportkanaal gebruikte je het meest?', type: 'multiple_choice', options: ['E-mail', 'Telefoon', 'Chat in de app'] },
];

async function participantAnswers(sessionId: string) {
  return t
    .em()
    .execute<{ text: string; value: unknown }[]>(`select text, value from session_utterances where session_id = ? and speaker = 'participant' order by seq`, [
      sessionId,
    ]);
}

describe('interview languages', () => {
  it('an invite with language nl: Dutch follow-ups and closing, Dutch answers understood, the session and its transcript in nl', async () => {
    const script = await createPublishedScript(api, { questions: DUTCH_QUESTIONS });
    // The campaign says English; the invite's language wins.
    const campaign = await createCampaign(api, { scriptId: script.id, settings: { language: 'en' } });
    const invite = await createInvite(api, campaign.id, { email: 'deelnemer@example.nl', language: 'nl', sendEmail: false });
    expect(invite).toMatchObject({ language: 'nl' });
    const participant = participantAs(t.http, invite.token);

    // The page before its script runs (and without one) is Dutch too, the expiry date in Dutch words.
    const page = await t.http.get(`/interview/${invite.token}`).expect(200);
    expect(page.text).toContain('<html lang="nl">');
    expect(page.text).toContain('nodigt je uit voor een interview.');
    expect(page.text).toMatch(/Hij is geldig tot \d{1,2} [a-z]+ \d{4}, \d{2}:\d{2} UTC\./);
    expect(page.text).not.toContain('invites you');

    const started = (await participant.start().expect(201)).body;
    expect(started.session.language).toBe('nl');
    expect(started.turn.text).toBe(DUTCH_QUESTIONS[0]!.text);
    const vague = (await participant.answer('Geen idee eigenlijk.').expect(200)).body;
    expect(vague.turn).toMatchObject({ kind: 'follow_up', text: 'Dat is goed. Schiet je iets concreets te binnen, ook al is het klein?' });
    await participant.answer('De installatie ging vlot en de handleiding was duidelijk.').expect(200);
    const unreadable = (await participant.answer('moeilijk te zeggen').expect(200)).body;
    expect(unreadable.turn).toMatchObject({
      kind: 're_ask',
      text: 'Sorry, ik heb geen getal gehoord. Op een schaal van 1 tot 5: Hoe makkelijk was de installatie?',
    });
    await participant.answer('vier van de vijf').expect(200);
    await participant.answer('ja hoor').expect(200);
    const done = (await participant.answer('de tweede').expect(200)).body;
    expect(done.session.status).toBe('completed');
    expect(done.closing).toBe('Dank je, dat was de laatste vraag. Je antwoorden zijn vastgelegd.');

    const values = (await participantAnswers(started.session.id)).map((row) => row.value);
    expect(values.slice(-3)).toEqual([4, true, 'Telefoon']);
  });

  it('nl-BE is held in Dutch; the campaign language applies when the invite has none', async () => {
    const script = await createPublishedScript(api, { questions: DUTCH_QUESTIONS.slice(2, 3) });
    const campaign = await createCampaign(api, { scriptId: script.id, settings: { language: 'nl-BE' } });
    const invite = await createInvite(api, campaign.id, { email: 'vlaming@example.be', sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const started = (await participant.start().expect(201)).body;
    expect(started.session.language).toBe('nl-BE');
    const done = (await participant.answer('nee, eigenlijk niet').expect(200)).body;
    expect(done.session.status).toBe('completed');
    expect((await participantAnswers(started.session.id)).map((row) => row.value)).toEqual([false]);
  });

  it('the transcript of a Dutch interview: Dutch sentiment and keywords, and an answer given in German flagged', async () => {
    const questions = [
      // No follow-ups: the built-in interviewer would probe "blij" and "teleurstellend", and this test is about the transcript.
      { id: 'ervaring', text: 'Hoe was je eerste week met het product?', type: 'open', followUp: { enabled: false } },
      { id: 'support', text: 'Hoe was het contact met de support?', type: 'open', followUp: { enabled: false } },
      { id: 'prijs', text: 'Wat vind je van de prijs?', type: 'open', followUp: { enabled: false } },
    ];
    const script = await createPublishedScript(api, { questions });
    const campaign = await createCampaign(api, { scriptId: script.id, settings: { language: 'nl' } });
    const invite = await createInvite(api, campaign.id, { email: 'analyse@example.nl', sendEmail: false });
    const participant = participantAs(t.http, invite.token);
    const sessionId = (await participant.start().expect(201)).body.session.id as string;
    await participant.answer('De installatie ging heel vlot en de handleiding was echt duidelijk, ik ben er blij mee.').expect(200);
    await participant.answer('Die Antworten vom Support kamen leider sehr spät und waren nicht hilfreich.').expect(200);
    await participant.answer('De prijs is veel te hoog, dat vind ik echt teleurstellend voor zo weinig functies.').expect(200);
    await runJobsOnce(t, { tasks: ['session__generate_transcript'] });

    const transcript = (await api.get(`/v1/sessions/${sessionId}/transcript?include_keywords=true`).expect(200)).body;
    expect(transcript.language).toBe('nl');
    const answers = transcript.utterances.filter((utterance: { speaker: string }) => utterance.speaker === 'participant');
    expect(answers.map((answer: { sentiment: string }) => answer.sentiment)).toEqual(['positive', 'negative', 'negative']);
    expect(answers[0].keywords).toEqual(expect.arrayContaining(['installatie']));
    expect(answers[2].keywords).toEqual(expect.arrayContaining(['prijs']));
    // Dutch stop words are not keywords.
    expect(answers.flatMap((answer: { keywords: string[] }) => answer.keywords)).not.toContain('echt');
    expect(answers.map((answer: { detectedLanguage?: string }) => answer.detectedLanguage ?? null)).toEqual([null, 'de', null]);
  });

  it("a closed share link says so in the campaign's language, and a closed invite page in the invite's", async () => {
    const campaign = await createCampaign(api, { settings: { language: 'fr' } });
    const link = await createShareLink(api, campaign.id, {});
    await api.post(`/v1/share-links/${link.id}/close`).expect(200);
    const page = await t.http.get(new URL(link.url).pathname).expect(410);
    expect(page.text).toContain('<html lang="fr">');
    expect(page.text).toContain("Cet entretien est clos et n'accepte plus de participants.".replace("'", '&#39;'));

    const invite = await createInvite(api, campaign.id, { email: 'annule@example.es', language: 'es', sendEmail: false });
    await api.post(`/v1/invites/${invite.id}/cancel`).expect(200);
    const cancelled = await t.http.get(`/interview/${invite.token}`).expect(410);
    expect(cancelled.text).toContain('<html lang="es">');
    expect(cancelled.text).toContain('Quien te envió esta invitación la ha retirado.');
  });

  it('a language interviews are not held in is refused where it is set (422), and nothing is created', async () => {
    const campaign = await createCampaign(api);
    const response = await api.post(`/v1/campaigns/${campaign.id}/invites`, { email: 'x@example.jp', language: 'ja', sendEmail: false });
    expect(response.status).toBe(422);
    expect(response.body.error.details.fields).toEqual([{ path: 'language', message: expect.stringContaining('en, nl, de, fr, es') }]);
    const [row] = await t.em().execute<{ count: string }[]>('select count(*) from invites where campaign_id = ?', [campaign.id]);
    expect(Number(row!.count)).toBe(0);
    const bulk = await api.post(`/v1/campaigns/${campaign.id}/invites/bulk`, { invites: [{ email: 'y@example.jp', language: 'pt-BR' }] });
    expect(bulk.status).toBe(422);
    expect(bulk.body.error.details.fields.map((field: { path: string }) => field.path)).toEqual(['invites[0].language']);
  });
});
