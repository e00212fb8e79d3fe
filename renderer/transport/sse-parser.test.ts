import { describe, expect, it } from 'vitest';
import { toAppEvent, parseEventData } from './app-event';
import { backoffDelay, createSseParser, type SseMessage } from './sse-parser';

function collect() {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = createSseParser((m) => messages.push(m), (ms) => retries.push(ms));
  return { parser, messages, retries };
}

describe('event-stream parsing', () => {
  it('delivers a message when its blank line arrives, however the text is chunked', () => {
    const { parser, messages } = collect();
    parser.push('data: {"type":"orders.ch');
    parser.push('anged"}\n');
    expect(messages).toEqual([]);
    parser.push('\n');
    expect(messages).toEqual([{ event: 'message', data: '{"type":"orders.changed"}' }]);
  });

  it('ignores comments (the server’s heartbeat) and joins multi-line data', () => {
    const { parser, messages } = collect();
    parser.push(': connected\n\n: ping\n\ndata: a\ndata: b\n\n');
    expect(messages).toEqual([{ event: 'message', data: 'a\nb' }]);
  });

  it('understands CRLF even when split between chunks, and named events and ids', () => {
    const { parser, messages } = collect();
    parser.push('event: outbox.state\r');
    parser.push('\nid: 7\r\ndata: {}\r\n\r\n');
    expect(messages).toEqual([{ event: 'outbox.state', data: '{}', id: '7' }]);
  });

  it('reports the server’s retry hint', () => {
    const { parser, retries } = collect();
    parser.push('retry: 5000\n\n');
    expect(retries).toEqual([5000]);
  });

  it('drops a message cut off by the end of the stream', () => {
    const { parser, messages } = collect();
    parser.push('data: half');
    parser.reset();
    parser.push('data: whole\n\n');
    expect(messages).toEqual([{ event: 'message', data: 'whole' }]);
  });
});

describe('events', () => {
  it('take their type from the core’s payload', () => {
    expect(toAppEvent('message', parseEventData('{"type":"orders.changed","orderIds":["1"]}'))).toEqual({ type: 'orders.changed', orderIds: ['1'] });
  });

  it('take their type from a named SSE event', () => {
    expect(toAppEvent('outbox.state', { pending: 2 })).toEqual({ type: 'outbox.state', pending: 2 });
  });

  it('without a type are dropped', () => {
    expect(toAppEvent(undefined, { orderIds: [] })).toBeUndefined();
    expect(toAppEvent('message', parseEventData('not json'))).toBeUndefined();
  });
});

describe('reconnect delay', () => {
  it('doubles from one second up to thirty, with jitter in the upper half', () => {
    const top = () => 0.999999;
    expect(backoffDelay(0, top)).toBe(1000);
    expect(backoffDelay(1, top)).toBe(2000);
    expect(backoffDelay(3, top)).toBe(8000);
    expect(backoffDelay(10, top)).toBe(30_000);
    expect(backoffDelay(0, () => 0)).toBe(500);
  });
});
