import { describe, expect, it } from 'vitest';
import { messageText } from '../../../shared/messages';
import { networkReason } from './network-reason';

const inRussian = (text: string) => {
  const reason = networkReason(text);
  return typeof reason === 'object' ? messageText(reason, 'ru') : String(reason);
};

describe('why a call got no answer, in the window\'s words', () => {
  it('says the system\'s usual reasons in Russian, keeping the address', () => {
    expect(inRussian('connect ECONNREFUSED 127.0.0.1:9')).toBe('соединение отклонено (127.0.0.1:9)');
    expect(inRussian('getaddrinfo ENOTFOUND api.cdek.ru')).toBe('адрес api.cdek.ru не найден');
    expect(inRussian('getaddrinfo EAI_AGAIN api.cdek.ru')).toBe('адрес api.cdek.ru сейчас не найти: нет интернета или не отвечает DNS');
  });

  it('says the fixed ones (a bad port, certificates) in Russian too', () => {
    expect(inRussian('bad port')).toBe('в адресе недопустимый порт');
    expect(inRussian('certificate has expired')).toBe('сертификат сервера просрочен');
    expect(inRussian('self-signed certificate in certificate chain')).toBe('сертификату сервера нельзя доверять');
  });

  it('keeps a reason it does not know as the system wrote it', () => {
    expect(networkReason('something else entirely')).toBe('something else entirely');
  });
});
