/** A tiny listener set that survives a throwing listener. */
export function createListeners<T>() {
  const listeners = new Set<(value: T) => void>();
  return {
    add(listener: (value: T) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(value: T): void {
      for (const listener of [...listeners]) {
        try {
          listener(value);
        } catch (error) {
          console.error('ShipDesk: event listener failed', error);
        }
      }
    },
  };
}
