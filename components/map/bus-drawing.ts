// Who draws the buses, and at which zoom: the one place that says it. Two renderers share the work. The bus
// overlay (./bus-overlay.ts, a WebGL canvas of its own) draws every bus from OVERLAY_MIN_ZOOM on, moving along
// its route, and the selected bus at every zoom. Below that zoom the clustered layer (./layers/bus-layer.ts)
// draws the fleet, but only once MapLibre's worker has tiled it (on a cold visit, half a second after the map's
// first frame): until the layer says it has drawn the fleet, the overlay draws every bus there too, so the buses
// come with the map's first frame. The layer is fed only below OVERLAY_MIN_ZOOM, where it draws: above, new data
// costs the map no tiles and no frame. Once the layer draws the fleet it is fed at most once per CLUSTER_FEED_MS
// (see there). Tests read drawn() instead of re-deriving this rule.
import type { EstimateBasis } from '@/lib/estimate';
import type { EpochMs } from '@/lib/model';
import type { BusPlacement } from '@/lib/placement/bus-placement';

/**
 * Clusters are tiled per whole zoom, so 11 means a dispatcher sees single buses from zoom 12 on: a whole
 * borough's worth of streets.
 */
export const BUS_CLUSTER_MAX_ZOOM = 11;
/** From this zoom on the overlay draws every bus; the clustered layer draws below it. */
export const OVERLAY_MIN_ZOOM = BUS_CLUSTER_MAX_ZOOM + 1;
/** Labels only where a bus's neighbours are far enough apart to read them. */
export const BUS_LABEL_MIN_ZOOM = 14;
/**
 * Heading arrows likewise: below it an arrow's tip is two or three pixels, and drawing it would nearly triple the
 * pixels each bus costs the overlay in software GL (its point must reach the tip).
 */
export const BUS_ARROW_MIN_ZOOM = 14;
/** Street zoom: where a bus's uncertainty circle is drawn. */
export const UNCERTAINTY_MIN_ZOOM = 15;

/**
 * Once the clustered layer draws the fleet, it is fed at most this often. Each feed makes MapLibre tile the fleet
 * again and redraw the whole map as the tiles come back, three to five frames, and without a GPU (a wall display,
 * this project's test machine) each map frame is a long task: 100-300 ms of software GL that the frame's commit
 * waits for (bench scale-pages, BENCH_PAGES_PROFILE). A snapshot and the placement beat each bring new placements,
 * a few seconds apart in every 5 s: fed both, the map drew twice the frames. A frame held back goes to the layer
 * when the interval has passed (the latest frame then: nothing is lost, only late by less than a beat). A new
 * selection and the layer's first data (before it has drawn the fleet) go at once.
 */
export const CLUSTER_FEED_MS = 5_000;

export type BusRendererName = 'overlay' | 'clusters';

/** A bus as a renderer draws it now. */
export interface DrawnBus {
  busId: number;
  lon: number;
  lat: number;
  basis: EstimateBasis;
  stale: boolean;
  label: string;
  selected: boolean;
  /** Where an estimate's last fix is (drawn by the overlay for the selected bus); null for a fix, and in clusters. */
  fix: { lon: number; lat: number } | null;
  by: BusRendererName;
}

/** What the map draws now: who draws the fleet, and every bus drawn (the clustered layer's, clustered on screen or not). */
export interface DrawnBuses {
  fleet: BusRendererName;
  buses: DrawnBus[];
}

/** The placements of one update, and the instants they are for. */
export interface BusFrame {
  placements: readonly BusPlacement[];
  selectedBusId: number | null;
  /** The instant the placements were placed for. */
  placedAt: EpochMs;
  /** The server's clock now (the overlay moves buses on it). */
  now: EpochMs;
}

/** One of the two ways buses reach the screen. */
export interface BusRenderer {
  /** New placements: the renderer draws what the controller's rule gives it (see BusDrawing). */
  update(frame: BusFrame): void;
  /** Who draws what changed: draw again. */
  redraw(): void;
  /** The buses it draws now. */
  drawn(): DrawnBus[];
}

/** The little of a MapLibre map the controller reads. */
export interface ZoomSource {
  getZoom(): number;
  on(type: 'zoomend', listener: () => void): unknown;
  off(type: 'zoomend', listener: () => void): unknown;
}

export class BusDrawing {
  private clustersReady = false;
  private latest: BusFrame | null = null;
  /** Whether the clustered layer holds the latest frame (it is not fed at street zoom). */
  private clustersCurrent = false;
  private overlay: BusRenderer | null = null;
  private clusters: BusRenderer | null = null;
  /** When the clustered layer was last fed (Date.now), and with which selection. */
  private fed: { at: number; selectedBusId: number | null } | null = null;
  /** A held-back frame's feed, due CLUSTER_FEED_MS after the last. */
  private feedTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly map: ZoomSource) {
    map.on('zoomend', this.onZoomEnd);
  }

  /** The renderers, once made (each is made with this controller to ask). */
  attach(overlay: BusRenderer, clusters: BusRenderer) {
    this.overlay = overlay;
    this.clusters = clusters;
    if (this.latest) this.update(this.latest);
  }

  /** Who draws every bus but the selected one at `zoom`. */
  fleetAt(zoom: number): BusRendererName {
    return zoom >= OVERLAY_MIN_ZOOM || !this.clustersReady ? 'overlay' : 'clusters';
  }

  /** Whether the clustered layer is given data at `zoom`: below OVERLAY_MIN_ZOOM, where its layers draw. */
  feedsClustersAt(zoom: number): boolean {
    return zoom < OVERLAY_MIN_ZOOM;
  }

  /**
   * The clustered layer has drawn the fleet (true), or not yet or not any more (false: a new style starts its
   * source empty).
   */
  setClustersReady(ready: boolean) {
    if (ready === this.clustersReady) return;
    this.clustersReady = ready;
    this.overlay?.redraw();
  }

  /** New placements: the overlay always (it draws the selected bus at every zoom), the clusters where they draw. */
  update(frame: BusFrame) {
    this.latest = frame;
    this.clustersCurrent = false;
    this.overlay?.update(frame);
    this.feedClusters();
  }

  private feedClusters() {
    if (!this.clusters || !this.latest || this.clustersCurrent || !this.feedsClustersAt(this.map.getZoom())) return;
    const wait = this.clustersReady && this.fed && this.fed.selectedBusId === this.latest.selectedBusId ? this.fed.at + CLUSTER_FEED_MS - Date.now() : 0;
    if (wait > 0) {
      this.feedTimer ??= setTimeout(() => {
        this.feedTimer = null;
        this.feedClusters();
      }, wait);
      return;
    }
    this.clustersCurrent = true;
    this.fed = { at: Date.now(), selectedBusId: this.latest.selectedBusId };
    this.clusters.update(this.latest);
  }

  /** Back below OVERLAY_MIN_ZOOM (read when a zoom ends, not on every frame of it): the clusters get what they missed. */
  private onZoomEnd = () => this.feedClusters();

  drawn(): DrawnBuses {
    const fleet = this.fleetAt(this.map.getZoom());
    const overlay = this.overlay?.drawn() ?? [];
    return { fleet, buses: fleet === 'clusters' ? [...(this.clusters?.drawn() ?? []), ...overlay] : overlay };
  }

  destroy() {
    if (this.feedTimer !== null) clearTimeout(this.feedTimer);
    this.map.off('zoomend', this.onZoomEnd);
  }
}
