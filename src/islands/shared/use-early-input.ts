import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A field the server rendered may hold text typed before its island's code arrived (a slow phone,
 * an island that starts on interaction): React keeps it in the field as it hydrates, and this makes
 * it the field's value. A layout effect, so it is taken before a press held meanwhile is performed.
 * Answers the ref to put on the field.
 */
export function useEarlyInput<E extends HTMLInputElement | HTMLTextAreaElement>(value: string, onChange: (value: string) => void): RefObject<E | null> {
  const ref = useRef<E>(null);
  useLayoutEffect(() => {
    const typed = ref.current?.value ?? '';
    if (typed && typed !== value) onChange(typed);
  }, []); // once, on hydration
  return ref;
}
