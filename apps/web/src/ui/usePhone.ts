import { BREAKPOINT_DRAWER_PX } from '@ecoa/shared';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the screen is a phone's: up to the spec's 768px, where the sidebar becomes a drawer.
 * There tables become cards and the wizard's stepper a "3 of 5" line. Read on the first render
 * (not after it), so a phone never draws the wide layout first.
 */
export function usePhone(): boolean {
  return (
    useMediaQuery(`(max-width: ${BREAKPOINT_DRAWER_PX}px)`, undefined, { getInitialValueInEffect: false }) ?? false
  );
}
