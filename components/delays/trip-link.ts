/** Where the dispatcher view opens a trip: the home page with the trip selected. */
export function tripMapHref(tripId: number): string {
  return `/?trip=${tripId}`;
}
