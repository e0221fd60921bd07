import { describe, expect, it } from 'vitest';
import type { TFollowUpDepth } from '../../shared/schemas/probes.js';
import type { TQuestion } from '../../shared/schemas/scripts.js';
import { BuiltinInterviewer } from '../../server/interviewer/builtin-interviewer.js';
import type { InterviewerRequest } from '../../server/interviewer/interviewer.js';
import { planProbe } from '../../server/interviewer/probing/plan-probe.js';
import type { ProbeRequest } from '../../server/interviewer/probing/probe-plan.js';
import { tokenOverlap } from '../../server/interviewer/probing/words.js';

const OPEN: ProbeRequest['question'] = { id: 'q1', text: 'How did it go?', type: 'open' };

function probe(language: string, answer: string, extra: Partial<ProbeRequest> = {}) {
  return planProbe({ answer, language, question: OPEN, probesAsked: 0, askedOnQuestion: [OPEN.text], pickedUpBefore: [], ...extra });
}

describe('planProbe: a question about what the participant said, in their words', () => {
  // [language, answer, reason, picked-up words, probe]: one per reason and language, answers written for this test.
  const cases: [string, string, string, string, string][] = [
    ['en', 'I tried twice and gave up.', 'event', 'I tried twice and gave up', 'You said you tried twice and gave up. What made you stop?'],
    [
      'en',
      'The export crashes every time I add a photo.',
      'problem',
      'The export crashes every time I add a photo',
      'You said the export crashes every time you add a photo. What do you do when that happens?',
    ],
    [
      'en',
      'I just write the codes on a sticky note instead.',
      'workaround',
      'I just write the codes on a sticky note instead',
      'You said you just write the codes on a sticky note instead. What made you do it that way instead?',
    ],
    ['en', 'Honestly I was furious.', 'feeling', 'I was furious', 'You said you were furious. What makes you feel that way?'],
    [
      'en',
      'It is much faster than the old portal.',
      'comparison',
      'It is much faster than the old portal',
      'You said it is much faster than the old portal. What makes the difference for you?',
    ],
    [
      'nl',
      'Ik heb het twee keer geprobeerd en toen opgegeven.',
      'event',
      'Ik heb het twee keer geprobeerd en toen opgegeven',
      'Je hebt het twee keer geprobeerd en toen opgegeven, zei je. Waardoor ben je gestopt?',
    ],
    [
      'nl',
      'Ik schrijf de codes gewoon op een briefje.',
      'workaround',
      'Ik schrijf de codes gewoon op een briefje',
      'Je schrijft de codes gewoon op een briefje, zei je. Hoe ben je zo gaan werken?',
    ],
    ['nl', 'Ik was echt teleurgesteld.', 'feeling', 'Ik was echt teleurgesteld', 'Je was echt teleurgesteld, zei je. Waardoor voel je je zo?'],
    [
      'nl',
      'Het is veel sneller dan het oude portaal.',
      'comparison',
      'Het is veel sneller dan het oude portaal',
      'Het is veel sneller dan het oude portaal, zei je. Waar zit voor jou het verschil?',
    ],
    [
      'de',
      'Ich habe es zweimal versucht und dann aufgegeben.',
      'event',
      'Ich habe es zweimal versucht und dann aufgegeben',
      'Du hast es zweimal versucht und dann aufgegeben, sagst du. Was hat dich dazu gebracht aufzuhören?',
    ],
    [
      'de',
      'Die App stürzt jedes Mal ab, wenn ich ein Foto hochlade.',
      'problem',
      'Die App stürzt jedes Mal ab',
      'Die App stürzt jedes Mal ab, sagst du. Was machst du, wenn das passiert?',
    ],
    [
      'de',
      'Ich schreibe die Codes einfach auf einen Zettel.',
      'workaround',
      'Ich schreibe die Codes einfach auf einen Zettel',
      'Du schreibst die Codes einfach auf einen Zettel, sagst du. Wie bist du darauf gekommen, es so zu machen?',
    ],
    [
      'de',
      'Ich war total enttäuscht.',
      'feeling',
      'Ich war total enttäuscht',
      'Du warst total enttäuscht, sagst du. Was genau löst dieses Gefühl bei dir aus?',
    ],
    [
      'de',
      'Das ist viel schneller als das alte Portal.',
      'comparison',
      'Das ist viel schneller als das alte Portal',
      'Das ist viel schneller als das alte Portal, sagst du. Worin liegt für dich der Unterschied?',
    ],
    ['fr', "J'ai essayé deux fois puis j'ai abandonné.", 'event', "j'ai abandonné", "Vous dites que vous avez abandonné. Qu'est-ce qui vous a fait arrêter ?"],
    [
      'fr',
      "L'appli plante chaque fois que j'ajoute une photo.",
      'problem',
      "L'appli plante chaque fois que j'ajoute une photo",
      "Vous dites que l'appli plante chaque fois que vous ajoutez une photo. Que faites-vous quand cela arrive ?",
    ],
    [
      'fr',
      'Je note les codes sur un post-it à la place.',
      'workaround',
      'Je note les codes sur un post-it à la place',
      "Vous dites que vous notez les codes sur un post-it à la place. Qu'est-ce qui vous pousse à faire ainsi ?",
    ],
    [
      'fr',
      "J'étais vraiment déçue.",
      'feeling',
      "J'étais vraiment déçue",
      "Vous dites que vous étiez vraiment déçue. Qu'est-ce qui vous fait ressentir cela ?",
    ],
    [
      'fr',
      "C'est beaucoup plus rapide que l'ancien portail.",
      'comparison',
      "C'est beaucoup plus rapide que l'ancien portail",
      "Vous dites que c'est beaucoup plus rapide que l'ancien portail. Où se situe la différence pour vous ?",
    ],
    [
      'es',
      'La app se queda colgada cada vez que subo una foto.',
      'problem',
      'La app se queda colgada cada vez que subo una foto',
      'Dices que la app se queda colgada cada vez que subes una foto. ¿Qué haces cuando pasa eso?',
    ],
    [
      'es',
      'Apunto los códigos en un papel a mano.',
      'workaround',
      'Apunto los códigos en un papel a mano',
      'Dices que apuntas los códigos en un papel a mano. ¿Cómo llegaste a hacerlo así?',
    ],
    ['es', 'Me sentí muy frustrada.', 'feeling', 'Me sentí muy frustrada', 'Dices que te sentiste muy frustrada. ¿De dónde viene esa sensación?'],
    [
      'es',
      'Es mucho más rápido que el portal antiguo.',
      'comparison',
      'Es mucho más rápido que el portal antiguo',
      'Has dicho «es mucho más rápido que el portal antiguo». ¿Dónde está la diferencia para ti?',
    ],
  ];
  it.each(cases)('%s: "%s" → a %s probe', (language, answer, reason, pickedUp, text) => {
    expect(probe(language, answer)).toEqual({ text, ledger: { reason, pickedUp, source: 'builtin', probeNumber: 1 } });
  });

  it.each([
    ['en', 'How many people use it?', 'Only about five of us.', 'You mentioned “only about five of us”. What is behind that number?'],
    ['nl', 'Hoeveel tijd kost het je?', 'Ongeveer drie uur per week.', 'Je noemde „ongeveer drie uur per week”. Wat zit er achter dat getal?'],
    ['de', 'Wie viel zahlst du im Monat?', 'Ungefähr vierzig Euro.', 'Du hast „ungefähr vierzig Euro“ gesagt. Was steckt hinter dieser Zahl?'],
    [
      'fr',
      'Combien de temps cela vous prend-il ?',
      'Environ trois heures par semaine.',
      'Vous avez dit « environ trois heures par semaine ». Que représente ce chiffre pour vous ?',
    ],
    ['es', '¿Cuánto tiempo te lleva?', 'Unas tres horas a la semana.', 'Has dicho «unas tres horas a la semana». ¿Qué hay detrás de esa cifra?'],
  ])('%s: a figure given to a question asking for an amount is asked about', (language, question, answer, text) => {
    expect(probe(language, answer, { question: { ...OPEN, text: question } })).toMatchObject({ text, ledger: { reason: 'number' } });
  });

  it('every probe is one open question: one question mark, ending the text, not opening with a yes/no verb', () => {
    for (const [language, answer] of cases) {
      const { text } = probe(language, answer)!;
      expect(text.match(/\?/g), text).toHaveLength(1);
      expect(text.endsWith('?'), text).toBe(true);
      expect(text.split(/[.»“”]\s+/).pop(), text).not.toMatch(
        /^(¿)?(is|are|do|does|did|can|could|would|ist|hast|kannst|est-ce|es|estás|was it|heb|ben|kun)\b/i,
      );
    }
  });

  it('a figure in a factual answer to a question not asking for one is no reason to probe', () => {
    expect(probe('en', 'The family plan, with four people on it.', { question: { ...OPEN, text: 'Which plan are you on?' } })).toBeNull();
    expect(probe('en', 'In 2019, when I moved to Utrecht.')).toBeNull();
  });

  it('an answer that closes the topic gets no probe, not even a vague one', () => {
    for (const [language, answer] of [
      ['en', 'No, nothing else, I think that covers it.'],
      ['nl', 'Nee, ik heb alles gezegd.'],
      ['de', 'Nee, passt so.'],
      ['fr', "Non, c'est tout."],
      ['es', 'No, eso es todo.'],
    ] as const) {
      expect(probe(language, answer), answer).toBeNull();
    }
  });

  it('"I don\'t know" is vague, not a problem: the neutral phrase, picking up nothing', () => {
    expect(probe('en', "I don't know.")).toEqual({
      text: 'That is fine. Is there anything specific that comes to mind, even something small?',
      ledger: { reason: 'vague', pickedUp: null, source: 'builtin', probeNumber: 1 },
    });
  });

  it('never picks up words an earlier probe picked up: the next anchor, or nothing', () => {
    const answer = 'The app kept crashing, so I just keep a spreadsheet now.';
    const first = probe('en', answer)!;
    const second = probe('en', answer, { probesAsked: 1, askedOnQuestion: [OPEN.text, first.text], pickedUpBefore: [first.ledger.pickedUp!] })!;
    expect(second.ledger.pickedUp).not.toBeNull();
    expect(tokenOverlap(second.ledger.pickedUp!, first.ledger.pickedUp!)).toBeLessThan(0.5);
    expect(second.ledger.probeNumber).toBe(2);
    expect(
      probe('en', answer, {
        probesAsked: 2,
        askedOnQuestion: [OPEN.text, first.text, second.text],
        pickedUpBefore: [first.ledger.pickedUp!, second.ledger.pickedUp!],
      }),
    ).toBeNull();
  });

  it('never repeats a question already asked on the question: the next wording for the same reason', () => {
    const first = probe('en', 'Honestly I was furious.')!;
    expect(first.text).toBe('You said you were furious. What makes you feel that way?');
    const again = probe('en', 'I was furious about the bill.', { askedOnQuestion: [OPEN.text, 'What makes you feel that way?'] })!;
    expect(again.text).toBe('You said you were furious about the bill. Where does that feeling come from?');
  });

  it('the vague phrases are not repeated either: after both were asked, nothing', () => {
    const asked = [
      'That is fine. Is there anything specific that comes to mind, even something small?',
      'Thank you. Is there anything else you would like to add about that?',
    ];
    expect(probe('en', 'Good.', { askedOnQuestion: [OPEN.text, asked[0]!] })?.text).toBe(asked[1]);
    expect(probe('en', 'Good.', { askedOnQuestion: [OPEN.text, ...asked] })).toBeNull();
  });
});

describe('planProbe: the script prompt only where it fits the answer', () => {
  const hardest = { ...OPEN, followUp: { prompt: 'What was the hardest part?' } } as ProbeRequest['question'];
  const why = { ...OPEN, followUp: { prompt: 'Why is that?' } } as ProbeRequest['question'];

  it('a prompt presupposing a difficulty is not asked after an answer that names none', () => {
    expect(probe('en', 'It was fine.', { question: hardest })).toMatchObject({ ledger: { reason: 'vague', source: 'builtin' } });
    expect(probe('nl', 'Prima.', { question: { ...OPEN, followUp: { prompt: 'Wat was het moeilijkste?' } } as ProbeRequest['question'] })).toMatchObject({
      ledger: { reason: 'vague' },
    });
  });

  it("a prompt asking why fits a short answer: asked as written, recorded as the script's", () => {
    expect(probe('en', 'It was fine.', { question: why })).toEqual({
      text: 'Why is that?',
      ledger: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber: 1 },
    });
  });

  it('an answer with something to ask about gets its own probe first; a fitting prompt follows once its anchors are used', () => {
    const answer = 'The importer broke twice.';
    const first = probe('en', answer, { question: hardest })!;
    expect(first.ledger).toMatchObject({ reason: 'problem', source: 'builtin', pickedUp: 'The importer broke twice' });
    const second = probe('en', answer, {
      question: hardest,
      probesAsked: 1,
      askedOnQuestion: [OPEN.text, first.text],
      pickedUpBefore: [first.ledger.pickedUp!],
    });
    expect(second).toEqual({ text: 'What was the hardest part?', ledger: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber: 2 } });
  });

  it('an answer that leaves nothing open gets no prompt', () => {
    expect(probe('en', 'With my fingerprint, on my phone.', { question: why })).toBeNull();
  });
});

describe('BuiltinInterviewer: depth', () => {
  const interviewer = new BuiltinInterviewer();
  const question = { id: 'q1', text: 'How did it go?', type: 'open', required: true } as TQuestion;
  const rich = 'The app kept crashing, so I just keep a spreadsheet now, which is slower than the old tool and honestly I am furious.';
  const request = (depth: TFollowUpDepth | null, followUpsAsked: number, answer = rich, extra: Partial<InterviewerRequest> = {}): InterviewerRequest => ({
    systemPrompt: '',
    language: 'en',
    questions: [question],
    current: question,
    followUpsAsked,
    followUpLimit: 10,
    depth,
    askedOnQuestion: [question.text],
    pickedUpBefore: [],
    answer,
    conversation: [],
    ...extra,
  });

  /** Probes asked on one answer until the interviewer moves on, each recorded as the engine would. */
  async function probesOn(depth: TFollowUpDepth | null, answer = rich, followUpLimit = 10) {
    const asked: string[] = [question.text];
    const pickedUp: string[] = [];
    const ledgers = [];
    for (let count = 0; count < 10; count += 1) {
      const decision = await interviewer.decide(request(depth, count, answer, { askedOnQuestion: [...asked], pickedUpBefore: [...pickedUp], followUpLimit }));
      if (decision.action !== 'follow_up') break;
      asked.push(decision.text);
      if (decision.probe.pickedUp) pickedUp.push(decision.probe.pickedUp);
      ledgers.push(decision.probe);
    }
    return ledgers;
  }

  it('medium asks one probe, high two, deep three, each numbered', async () => {
    expect(await probesOn('medium')).toHaveLength(1);
    expect((await probesOn('high')).map((ledger) => ledger.probeNumber)).toEqual([1, 2]);
    expect((await probesOn('deep')).map((ledger) => ledger.probeNumber)).toEqual([1, 2, 3]);
  });

  it('low probes a problem or a feeling once, and not a comparison or a figure alone', async () => {
    expect(await probesOn('low')).toHaveLength(1);
    expect(await probesOn('low', 'It is much faster than the old portal.')).toHaveLength(0);
    expect(await probesOn('medium', 'It is much faster than the old portal.')).toHaveLength(1);
    expect(await probesOn('low', 'Good.')).toMatchObject([{ reason: 'vague' }]);
  });

  it('without a depth, up to followUpLimit; never past it', async () => {
    expect(await probesOn(null, rich, 1)).toHaveLength(1);
    expect((await probesOn(null, rich, 10)).length).toBeGreaterThanOrEqual(2);
    expect(await interviewer.decide(request('deep', 1, rich, { followUpLimit: 1 }))).toEqual({ action: 'next' });
  });

  it('a further probe without the turns already asked on the question (an engine that does not pass them) is not asked: it could repeat one', async () => {
    expect(await interviewer.decide(request('deep', 1, rich, { askedOnQuestion: [] }))).toEqual({ action: 'next' });
  });

  it('a structured question keeps the script prompt once, after an answer that was just the value', async () => {
    const rating = { id: 'r', text: 'How easy was it?', type: 'rating', required: true, followUp: { prompt: 'What made you choose that?' } } as TQuestion;
    expect(await interviewer.decide(request(null, 0, '4', { current: rating, questions: [rating] }))).toEqual({
      action: 'follow_up',
      text: 'What made you choose that?',
      probe: { reason: 'script_prompt', pickedUp: null, source: 'script', probeNumber: 1 },
    });
    expect(await interviewer.decide(request(null, 1, '4', { current: rating, questions: [rating] }))).toEqual({ action: 'next' });
  });
});
