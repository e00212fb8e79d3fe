import { createTranslate } from '../../i18n/translate';
import { timelineText } from './timeline-text';

const ru = createTranslate('ru');
const en = createTranslate('en');

describe('status descriptions in the timeline', () => {
  it('say the core\'s own texts in Russian', () => {
    expect(timelineText('Changed; sending to the delivery service again', ru)).toBe('Изменён; передаётся в службу доставки заново');
    expect(timelineText('Changes accepted by the delivery service', ru)).toBe('Служба доставки приняла изменения');
  });

  it('name each field of a service\'s refusal and translate its message, keeping the service\'s key', () => {
    const text = 'sandbox-express refused the order: recipient.phone: must be a phone number; order.weight: must be a number';
    const said = timelineText(text, ru);
    expect(said.startsWith('sandbox-express отказала: ')).toBe(true);
    expect(said).not.toMatch(/must be|refused|recipient\.phone/);
    expect(timelineText(text, en)).toMatch(/^sandbox-express refused it: Recipient › Phone: /);
  });

  it('says that refused changes left the previous data in place', () => {
    const text = 'The delivery service refused the changes; it keeps the previous data. sandbox-express refused the changes: order.weight: must be a number';
    expect(timelineText(text, ru)).toMatch(/^Служба доставки не приняла изменения и оставила прежние данные\. sandbox-express отказала: /);
  });

  it('leaves a service\'s own wording as it came', () => {
    expect(timelineText('Посылка прибыла в пункт выдачи', ru)).toBe('Посылка прибыла в пункт выдачи');
  });
});
