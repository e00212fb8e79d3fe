import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import { parseDay } from '../i18n/format';
import { useLanguage } from '../i18n/use-t';

/** How a day is written in each language's box (dayjs formats). */
const dayFormats = { ru: 'DD.MM.YYYY', en: 'DD MMM YYYY' } as const;
/** What to type, shown in an empty box (the parser reads the Russian and the ISO form in either language). */
const typedForms = { ru: 'ДД.ММ.ГГГГ', en: 'YYYY-MM-DD' } as const;

type DayInputProps = Omit<DateInputProps, 'value' | 'onChange' | 'dateParser' | 'valueFormat'> & {
  /** "YYYY-MM-DD" or null. */
  value: string | null;
  onChange: (value: string | null) => void;
};

/**
 * A calendar day typed or picked in the app's language (Russian month and day names, Monday first,
 * 27.11.2026), not the browser's: a native date box follows the operating system and showed
 * mm/dd/yyyy in a Russian window.
 */
export function DayInput({ value, onChange, ...props }: DayInputProps) {
  const language = useLanguage();
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: language === 'ru' ? 1 : 0 }}>
      <DateInput valueFormat={dayFormats[language]} dateParser={parseDay} placeholder={typedForms[language]} value={value} onChange={(v) => onChange(v || null)} clearable {...props} />
    </DatesProvider>
  );
}
