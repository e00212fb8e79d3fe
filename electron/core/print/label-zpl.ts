import { formatKilograms, formatRubles } from './format';
import type { LabelData } from './label';

/**
 * Labels as one ZPL II stream for a Zebra-class printer at 203 dpi (8 dots per mm), 100×150 mm each:
 * one `^XA … ^XZ` block per label, in order. Text is UTF-8 (`^CI28`) in the Unicode font resident on Link-OS
 * printers (Swiss 721, `E:TT0003M_`, named font 1 by `^CW`): the default font 0 has no Cyrillic glyphs, so a
 * Russian address would print blank in it. The printer draws the Code 128 (`^BC`, automatic code sets) and the DataMatrix (`^BX`) itself.
 */
export function labelsZpl(labels: LabelData[]): string {
  return labels.map(labelZpl).join('');
}

const width = 800;
const margin = 32;
const inner = width - 2 * margin;

/**
 * Field data through `^FH` hex escapes: `^` and `~` would start a command inside the text, and `_` is
 * the escape character itself. Line breaks become spaces (a label line is one line).
 */
export function zplField(text: string): string {
  const escaped = text.replace(/[\r\n\t]+/g, ' ').replace(/[_^~\\]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `^FH_^FD${escaped}^FS`;
}

const text = (x: number, y: number, size: number, value: string, block?: { width: number; lines: number; align?: 'L' | 'C' | 'R' }) =>
  `^FO${x},${y}^A1N,${size},${Math.round(size * 0.9)}${block ? `^FB${block.width},${block.lines},2,${block.align ?? 'L'}` : ''}${zplField(value)}\n`;
const rule = (y: number) => `^FO${margin},${y}^GB${inner},3,3^FS\n`;

function labelZpl(label: LabelData): string {
  const where = label.point ? `Пункт ${label.point.code}: ${label.point.address}` : label.recipient.address;
  const parts = [
    '^XA\n^CI28\n^CW1,E:TT0003M_.FNT\n^PW800\n^LL1200\n^LH0,0\n',
    text(margin, 28, 44, label.service, { width: inner - 200, lines: 1 }),
    label.tariff ? text(margin, 78, 24, label.tariff, { width: inner - 200, lines: 1 }) : '',
    text(width - margin - 200, 24, 20, 'Место', { width: 200, lines: 1, align: 'R' }),
    text(width - margin - 200, 50, 48, `${label.place} из ${label.places}`, { width: 200, lines: 1, align: 'R' }),
    rule(116),
    `^FO${margin + 16},136^BY3,3,176^BCN,176,N,N,N,A${zplField(label.providerNumber)}\n`,
    text(margin, 326, 38, label.providerNumber, { width: inner, lines: 1, align: 'C' }),
    rule(374),
    text(margin, 390, 20, label.point ? 'Получатель · пункт выдачи' : 'Получатель'),
    text(margin, 414, 34, label.recipient.name, { width: inner, lines: 1 }),
    text(margin, 454, 30, label.recipient.phone),
    text(margin, 494, 28, where, { width: inner, lines: 3 }),
    rule(600),
    text(margin, 616, 20, 'Заказ магазина'),
    text(margin + inner / 2, 616, 20, 'Вес места'),
    text(margin, 642, 34, label.clientNumber, { width: inner / 2 - 16, lines: 1 }),
    text(margin + inner / 2, 642, 34, formatKilograms(label.weightGrams)),
    label.codKopecks > 0
      ? `^FO${margin},696^GB${inner},60,60^FS\n^FO${margin + 16},708^FR^A1N,38,34${zplField(`Наложенный платёж: ${formatRubles(label.codKopecks)}`)}\n`
      : '',
    text(margin, 1000, 20, 'Отправитель'),
    text(margin, 1026, 24, label.sender, { width: 540, lines: 5 }),
    `^FO${width - margin - 168},1000^BXN,8,200${zplField(label.providerNumber)}\n`,
    '^XZ\n',
  ];
  return parts.join('');
}
