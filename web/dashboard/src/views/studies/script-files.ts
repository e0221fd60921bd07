import type { FieldError } from '../../../../../shared/error-codes';
import { type TImportScriptInput, ZImportScriptInput } from '../../../../../shared/schemas/scripts';
import { fieldErrorsFromZod } from '../../../../../shared/validation-messages';

/** Saves `data` as a JSON file the browser downloads (a Blob URL, released right after). */
export function downloadJson(data: unknown, filename: string): void {
  const blob = new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** `Onboarding study` v3 → `onboarding-study-v3.json`. */
export function exportFilename(name: string, version: number): string {
  const slug =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'script';
  return `${slug}-v${version}.json`;
}

export type ImportCheck = { ok: true; input: TImportScriptInput } | { ok: false; message: string; fields: FieldError[] };

/** A chosen file read as an export and checked with the import's own schema, before anything is sent. */
export async function checkImportFile(file: File): Promise<ImportCheck> {
  let data: unknown;
  try {
    data = JSON.parse(await file.text());
  } catch (error) {
    return { ok: false, message: `${file.name} is not JSON: ${error instanceof Error ? error.message : String(error)}`, fields: [] };
  }
  const parsed = ZImportScriptInput.safeParse(data);
  if (parsed.success) return { ok: true, input: data as TImportScriptInput };
  return { ok: false, message: `${file.name} is not a script export this service can import.`, fields: fieldErrorsFromZod(parsed.error, data).fields };
}
