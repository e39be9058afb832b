import { useEffect, useState } from 'react';
import type { TextCounter } from '@web/lib/text-counter.js';

/** Typing pauses this long before the counter speaks, so a screen reader is not interrupted per key. */
const announceDelayMs = 700;

interface CharacterCountProps {
  id: string;
  counter: TextCounter;
}

/**
 * The visible "n / max" (read with the field through aria-describedby) plus a polite live region that
 * speaks only near or over the limit, after typing pauses (the GOV.UK character-count pattern).
 */
export function CharacterCount({ id, counter }: CharacterCountProps) {
  const [spoken, setSpoken] = useState<string | null>(null);
  const { announcement } = counter;
  useEffect(() => {
    const timer = setTimeout(() => {
      setSpoken(announcement);
    }, announceDelayMs);
    return () => {
      clearTimeout(timer);
    };
  }, [announcement]);
  const tone = counter.over ? ' field__counter--over' : counter.near ? ' field__counter--near' : '';
  return (
    <>
      <p className={`field__counter${tone}`} id={id}>
        {counter.label}
        {counter.over ? <span className="visually-hidden"> (over the limit)</span> : null}
      </p>
      <span className="visually-hidden" aria-live="polite">
        {spoken}
      </span>
    </>
  );
}
