import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left until a deadline, ticking once a second. `restart(n)` starts a new countdown.
 * Measured against the clock, so a busy tab does not stretch it.
 */
export function useCountdown(initialSeconds: number) {
  const [deadline, setDeadline] = useState(() => Date.now() + initialSeconds * 1000);
  const [seconds, setSeconds] = useState(initialSeconds);

  useEffect(() => {
    let timer = 0;
    const tick = () => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSeconds(left);
      if (left === 0) window.clearInterval(timer);
    };
    timer = window.setInterval(tick, 250);
    tick();
    return () => window.clearInterval(timer);
  }, [deadline]);

  const restart = useCallback((next: number) => {
    setDeadline(Date.now() + next * 1000);
    setSeconds(next);
  }, []);

  return { seconds, restart };
}
