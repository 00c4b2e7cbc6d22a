// The studio's state, in one place: components read it through useStore and every change goes
// through set(), which re-renders exactly the components whose selected slice changed.
import { useEffect, useState } from "./lib.js";

export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(patch) {
      const next = typeof patch === "function" ? patch(state) : patch;
      state = { ...state, ...next };
      listeners.forEach((listener) => listener(state));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

// The slice `select` picks out of the store, kept fresh; a component re-renders only when the
// slice changes (compared item by item for arrays, so selectors may return tuples).
export function useStore(store, select) {
  const [slice, setSlice] = useState(() => select(store.get()));
  useEffect(() => {
    let last = select(store.get());
    setSlice(last);
    return store.subscribe((state) => {
      const next = select(state);
      if (!same(next, last)) {
        last = next;
        setSlice(next);
      }
    });
  }, [store]);
  return slice;
}

function same(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => item === b[i]);
}
