import { Code } from '@mantine/core';
import { Fragment } from 'react';

/**
 * A translated text whose `backticked` parts are code (a header, a command, a field of the interface): those
 * parts stay as they are in every language, so they are shown as code, not as words to read.
 */
export function CodeText({ text }: { text: string }) {
  return text.split('`').map((part, i) => (i % 2 === 1 ? <Code key={i}>{part}</Code> : <Fragment key={i}>{part}</Fragment>));
}
