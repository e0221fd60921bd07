import type { TTurn } from '../../shared/schemas/sessions.js';

/**
 * A question's images and audio clips, shown with it in voice and text mode: images with their alt
 * text (an image uploaded without one is marked decorative, `alt=""`, rather than read out by its
 * file name), scaled to the column and never taller than about a third of the screen so the
 * question and its answer area stay in view; an audio clip as a player the participant starts
 * (`controls`, never autoplay: it would talk over the interviewer), labelled by its alt text.
 * Null when the turn has no media. Links are the turn's signed ones, from the service's own origin
 * (the page's CSP allows images and audio from nowhere else).
 */
export function renderQuestionMedia(turn: TTurn): HTMLElement | null {
  const media = turn.media ?? [];
  if (media.length === 0) return null;
  const container = document.createElement('div');
  container.className = 'question-media';
  for (const item of media) {
    if (item.kind === 'image') {
      const image = document.createElement('img');
      image.src = item.url;
      image.alt = item.alt ?? '';
      image.decoding = 'async';
      container.append(image);
    } else {
      const audio = document.createElement('audio');
      audio.controls = true;
      audio.preload = 'metadata';
      audio.src = item.url;
      if (item.alt) audio.setAttribute('aria-label', item.alt);
      container.append(audio);
    }
  }
  return container;
}
