/** A `--name` option that must be a positive integer (counts, sizes, rounds): a typo fails before any work. */
export function positiveOption(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer`);
  return number;
}
