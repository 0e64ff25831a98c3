/** Counted nouns in user output, pure: `count(1, 'event')` is "1 event", `count(2, 'event')` "2 events". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
