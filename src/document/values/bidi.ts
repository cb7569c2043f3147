/**
 * The directional embedding, override and isolate controls. Each changes the order in which the
 * characters after it are shown, so a value holding one reads differently from what was sent:
 * `abc\u202Egpj.exe` shows as `abcexe.jpg`. The marks right-to-left text needs (U+200E
 * left-to-right mark, U+200F right-to-left mark, U+061C Arabic letter mark) only settle the
 * direction of neutral characters next to them and are kept.
 */
const BIDI_CONTROL_NAMES: Readonly<Record<number, string>> = {
  0x202a: 'left-to-right embedding',
  0x202b: 'right-to-left embedding',
  0x202c: 'pop directional formatting',
  0x202d: 'left-to-right override',
  0x202e: 'right-to-left override',
  0x2066: 'left-to-right isolate',
  0x2067: 'right-to-left isolate',
  0x2068: 'first strong isolate',
  0x2069: 'pop directional isolate',
};

const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * The first bidi control in a text as a sentence naming it and its position (in characters,
 * from 1), or undefined when there is none.
 */
export function bidiControlProblem(text: string): string | undefined {
  const found = BIDI_CONTROL.exec(text);
  if (!found) return undefined;
  const code = found[0].charCodeAt(0);
  const position = Array.from(text.slice(0, found.index)).length + 1;
  const hex = code.toString(16).toUpperCase();
  return (
    `contains a ${BIDI_CONTROL_NAMES[code]} (U+${hex}) at character ${position}, ` +
    'which reorders what the signer reads; remove it'
  );
}
