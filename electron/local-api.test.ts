import { desktopApiPort } from './local-api';

describe('the desktop app\'s local API port', () => {
  it('is 4318 unless SHIPDESK_API_PORT names a valid port', () => {
    expect(desktopApiPort({})).toBe(4318);
    expect(desktopApiPort({ SHIPDESK_API_PORT: '5000' })).toBe(5000);
    expect(desktopApiPort({ SHIPDESK_API_PORT: '0' })).toBe(0);
    for (const bad of ['', ' ', 'abc', '70000', '-1', '12.5']) expect(desktopApiPort({ SHIPDESK_API_PORT: bad })).toBe(4318);
  });
});
