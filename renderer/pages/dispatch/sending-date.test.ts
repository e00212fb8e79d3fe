import { defaultSendingDate } from './sending-date';

describe('the sending date the dispatch screen offers for a postal batch', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the day in Moscow: at 21:30 UTC on 27 November it is already the 28th there, whatever the computer\'s zone', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T21:30:00Z'));
    expect(defaultSendingDate()).toBe('2026-11-28');
  });

  it('is the same calendar day before 21:00 UTC, and follows the year over at midnight in Moscow', () => {
    expect(defaultSendingDate(Date.parse('2026-11-27T20:59:59Z'))).toBe('2026-11-27');
    expect(defaultSendingDate(Date.parse('2026-12-31T21:00:00Z'))).toBe('2027-01-01');
  });
});
