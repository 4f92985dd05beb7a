/**
 * Which of a resource's notes the card shows: each as written, unless the narrative already says it.
 * "Says it" is whole lines: a note is left out only where its lines stand as lines of the narrative,
 * never because its words occur inside another sentence (a short comment, "Ja", is in many).
 */
import type { Annotation } from './fhir-types.js';

const linesOf = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/** The notes with text that the narrative (its text, block by block on lines of its own) does not already hold. */
export function unsaidNotes(notes: readonly Annotation[], narrative: string | undefined): Annotation[] {
  const said = `\n${linesOf(narrative ?? '').join('\n')}\n`;
  return notes.filter((n) => {
    if (typeof n.text !== 'string') return false;
    const lines = linesOf(n.text);
    return lines.length > 0 && !said.includes(`\n${lines.join('\n')}\n`);
  });
}
