/** "1 session", "3 sessions": a count with its noun in the right number (`many` for irregular plurals). */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
