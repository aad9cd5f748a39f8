import { describe, expect, it, vi } from 'vitest';
import {
  createLocalEventSignal,
  decodeSignal,
  encodeSignal,
} from '../../src/platform/infra/event-signal';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('local event signal', () => {
  it('delivers to every listener on a later turn, never inside notify()', async () => {
    const signal = createLocalEventSignal();
    const a = vi.fn();
    const b = vi.fn();
    signal.subscribe(a);
    signal.subscribe(b);
    signal.notify(7);
    expect(a).not.toHaveBeenCalled();
    await nextTurn();
    expect(a).toHaveBeenCalledWith(7);
    expect(b).toHaveBeenCalledWith(7);
    await signal.close();
  });

  it('folds notifications of one turn into the highest id', async () => {
    const signal = createLocalEventSignal();
    const listener = vi.fn();
    signal.subscribe(listener);
    signal.notify(3);
    signal.notify(5);
    signal.notify(4);
    await nextTurn();
    expect(listener.mock.calls).toEqual([[5]]);
    signal.notify(6);
    await nextTurn();
    expect(listener.mock.calls).toEqual([[5], [6]]);
    await signal.close();
  });

  it('stops delivering to a listener that unsubscribed', async () => {
    const signal = createLocalEventSignal();
    const listener = vi.fn();
    const unsubscribe = signal.subscribe(listener);
    unsubscribe();
    signal.notify(1);
    await nextTurn();
    expect(listener).not.toHaveBeenCalled();
    await signal.close();
  });

  it('keeps delivering to the others when one listener throws', async () => {
    const error = vi.fn();
    const signal = createLocalEventSignal({ log: { error, warn: vi.fn() } });
    const after = vi.fn();
    signal.subscribe(() => {
      throw new Error('listener bug');
    });
    signal.subscribe(after);
    expect(() => {
      signal.notify(2);
    }).not.toThrow();
    await nextTurn();
    expect(after).toHaveBeenCalledWith(2);
    expect(error).toHaveBeenCalledOnce();
    await signal.close();
  });

  it('never reconnects, and is silent once closed', async () => {
    const signal = createLocalEventSignal();
    const listener = vi.fn();
    signal.subscribe(listener);
    const unsubscribe = signal.onReconnect(vi.fn());
    unsubscribe();
    signal.notify(1);
    await signal.close();
    await nextTurn();
    expect(listener).not.toHaveBeenCalled();
    expect(() => {
      signal.notify(2);
    }).not.toThrow();
  });
});

describe('signal messages', () => {
  it('carry the id and where they came from', () => {
    expect(decodeSignal(encodeSignal(42, 'abc'))).toEqual({ lastId: 42, origin: 'abc' });
    expect(decodeSignal('42')).toEqual({ lastId: 42, origin: null });
    expect(decodeSignal('')).toBeNull();
    expect(decodeSignal('nope x')).toBeNull();
  });
});
