'use client';
// Imported for its effect by the pages that show a map: MapLibre's chunk starts downloading when the page's own
// chunks run, alongside hydration, instead of from the map's mount effect after it. The map's own
// import('maplibre-gl') then gets this same module.
if (typeof window !== 'undefined') void import('maplibre-gl');

export {};
