import { useEffect, useId, useState } from 'react';
import { MEDIA_ALT_MAX_LENGTH, type TScriptMedia } from '../../../../../shared/schemas/scripts';
import { useAuth } from '../../auth';
import { restCall } from '../../rest';
import { ErrorNote } from '../../ui';

/**
 * The images and audio clips shown with one question: each previewed with its text alternative
 * and removable; a new one is uploaded (multipart, `POST /v1/scripts/{id}/media`) with its alt
 * text. The API only attaches media to a question of the newest saved version, so `ensureSaved`
 * saves the editor's changes first.
 */
export function QuestionMedia({
  scriptId,
  questionId,
  label,
  media,
  disabled,
  ensureSaved,
  onChanged,
  onRemove,
}: {
  scriptId: string;
  questionId: string;
  /** "question 2", for the controls' names. */
  label: string;
  media: TScriptMedia[];
  disabled: boolean;
  ensureSaved: () => Promise<boolean>;
  onChanged: () => void;
  onRemove: (media: TScriptMedia) => Promise<void>;
}) {
  const { accessToken } = useAuth();
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [inputKey, setInputKey] = useState(0);
  const isImage = Boolean(file?.type.startsWith('image/'));

  // An image is shown before it is uploaded, as a data: URL (the page's CSP allows those for images).
  useEffect(() => {
    setPreview(null);
    if (!file || !file.type.startsWith('image/')) return;
    const reader = new FileReader();
    reader.onload = () => setPreview(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);

  const altMissing = isImage && alt.trim() === '';
  const upload = async () => {
    if (!file || altMissing) return;
    setBusy(true);
    setError(null);
    try {
      if (!(await ensureSaved())) return;
      const form = new FormData();
      form.set('questionId', questionId);
      if (alt.trim()) form.set('alt', alt.trim());
      form.set('file', file, file.name);
      await restCall<TScriptMedia>(accessToken, `/v1/scripts/${encodeURIComponent(scriptId)}/media`, { method: 'POST', body: form });
      setFile(null);
      setAlt('');
      setInputKey((key) => key + 1);
      onChanged();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (item: TScriptMedia) => {
    if (!window.confirm(`Remove “${item.filename}” from ${label}?`)) return;
    setError(null);
    try {
      await onRemove(item);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <fieldset className="question-media">
      <legend>Media shown with {label}</legend>
      {media.length === 0 ? (
        <p className="muted small">No image or audio yet.</p>
      ) : (
        <ul className="media-list">
          {media.map((item) => (
            <li key={item.id} className="media-item">
              {item.kind === 'image' ? (
                <img src={item.url} alt={item.alt ?? ''} className="media-preview" />
              ) : (
                <audio controls src={item.url} aria-label={item.alt ?? item.filename} />
              )}
              <div>
                <p className="small">
                  <strong>{item.filename}</strong> <span className="muted">({Math.ceil(item.size / 1024)} KB)</span>
                </p>
                <p className="small">
                  {item.alt ? <>Alt text: {item.alt}</> : <span className="field-error">No alt text: participants who cannot see it miss it.</span>}
                </p>
                <button type="button" className="link danger small" disabled={disabled} onClick={() => void remove(item)}>
                  Remove {item.filename}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="media-upload">
        <label htmlFor={`${id}-file`}>Add an image or audio clip</label>
        <input
          key={inputKey}
          id={`${id}-file`}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,audio/*"
          disabled={disabled || busy}
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
        {preview && <img src={preview} alt="" className="media-preview" />}
        <label htmlFor={`${id}-alt`}>{isImage ? 'Alt text (what the image shows)' : 'Alt text (what it shows or says)'}</label>
        <textarea
          id={`${id}-alt`}
          rows={2}
          maxLength={MEDIA_ALT_MAX_LENGTH}
          value={alt}
          disabled={disabled || busy}
          aria-describedby={altMissing ? `${id}-alt-error` : undefined}
          aria-invalid={altMissing || undefined}
          onChange={(event) => setAlt(event.target.value)}
        />
        {altMissing && (
          <p className="field-error" id={`${id}-alt-error`}>
            Describe the image for participants who cannot see it.
          </p>
        )}
        <button type="button" className="secondary" disabled={disabled || busy || !file || altMissing} onClick={() => void upload()}>
          {busy ? 'Uploading…' : `Upload to ${label}`}
        </button>
        <ErrorNote error={error} />
      </div>
    </fieldset>
  );
}
