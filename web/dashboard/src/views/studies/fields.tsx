import type { ReactNode } from 'react';
import { errorId, type FieldMessages, fieldId } from './script-form';

/** What is wrong with the field at `path` (the API's own words), for its input's aria-describedby. */
export function FieldProblem({ path, errors }: { path: string; errors: FieldMessages }) {
  const messages = errors.get(path);
  if (!messages) return null;
  return (
    <p className="field-error" id={errorId(path)}>
      {messages.join('; ')}
    </p>
  );
}

/** The props that tie an input to its path: its id, aria-invalid and the error text. */
export function fieldProps(path: string, errors: FieldMessages, hintId?: string) {
  const invalid = errors.has(path);
  const describedBy = [invalid ? errorId(path) : '', hintId ?? ''].filter(Boolean).join(' ');
  return { id: fieldId(path), 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy || undefined };
}

/** A labelled text input or textarea bound to an API path, with its problem beside it. */
export function TextField({
  path,
  label,
  value,
  onChange,
  errors,
  multiline = false,
  rows = 3,
  hint,
  inputMode,
  type = 'text',
  readOnly,
}: {
  path: string;
  label: ReactNode;
  value: string;
  onChange: (value: string) => void;
  errors: FieldMessages;
  multiline?: boolean;
  rows?: number;
  hint?: ReactNode;
  inputMode?: 'numeric';
  type?: 'text' | 'number';
  readOnly?: boolean;
}) {
  const hintId = hint ? `${fieldId(path)}-hint` : undefined;
  const props = fieldProps(path, errors, hintId);
  return (
    <div className="field">
      <label htmlFor={props.id}>{label}</label>
      {hint && (
        <p className="muted small hint" id={hintId}>
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea {...props} rows={rows} value={value} onChange={(event) => onChange(event.target.value)} readOnly={readOnly} />
      ) : (
        <input {...props} type={type} inputMode={inputMode} value={value} onChange={(event) => onChange(event.target.value)} readOnly={readOnly} />
      )}
      <FieldProblem path={path} errors={errors} />
    </div>
  );
}
