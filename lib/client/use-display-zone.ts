'use client';
// The person's choice of zone (agency or browser), remembered in localStorage and shared by every component
// and tab: a change in one place re-renders every time on screen.
import { useCallback, useSyncExternalStore } from 'react';
import { browserTimeZone } from '@/lib/view/format';
import { DEFAULT_ZONE_CHOICE, isZoneChoice, resolveDisplayZone, ZONE_CHOICE_STORAGE_KEY, type ResolvedZone, type ZoneChoice } from '@/lib/view/display-zone';

const CHANGED = 'fleetmap-time-zone-change';

function readChoice(): ZoneChoice {
  try {
    const v = localStorage.getItem(ZONE_CHOICE_STORAGE_KEY);
    return isZoneChoice(v) ? v : DEFAULT_ZONE_CHOICE;
  } catch {
    return DEFAULT_ZONE_CHOICE;
  }
}

function subscribe(listener: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === ZONE_CHOICE_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  window.addEventListener(CHANGED, listener);
  return () => {
    window.removeEventListener('storage', onStorage);
    window.removeEventListener(CHANGED, listener);
  };
}

export function useZoneChoice(): [ZoneChoice, (c: ZoneChoice) => void] {
  const choice = useSyncExternalStore(subscribe, readChoice, () => DEFAULT_ZONE_CHOICE);
  const setChoice = useCallback((c: ZoneChoice) => {
    try {
      localStorage.setItem(ZONE_CHOICE_STORAGE_KEY, c);
    } catch {
      // storage disabled: the choice cannot be kept, and the agency's time stays
    }
    window.dispatchEvent(new Event(CHANGED));
  }, []);
  return [choice, setChoice];
}

/** The zone to show times in, given the agency's (the feed's health.timezone.zone; null while unknown). */
export function useDisplayZone(agencyZone: string | null | undefined): ResolvedZone {
  const [choice] = useZoneChoice();
  // The browser's zone is only known in the browser; during server rendering no time is drawn.
  const browser = useSyncExternalStore(noSubscription, browserTimeZone, () => 'UTC');
  return resolveDisplayZone(choice, agencyZone ?? null, browser);
}

function noSubscription() {
  return () => {};
}
